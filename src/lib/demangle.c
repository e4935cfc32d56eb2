/*
 * demangle: see demangle.h.
 *
 * C++ is read in two passes, as libiberty's cp-demangle does: a parser
 * builds a tree of nodes from the mangled text (substitutions S_ and
 * template parameters T_ are pointers to nodes already built), then a
 * printer walks it.  Two passes because the text's order is not the
 * output's: a pointer to a function ("PFviE") prints its return type, then
 * the pointer, then the parameters, and a template parameter is resolved
 * only when printing, against the function template's own arguments.
 *
 * Without DEMANGLE_PARAMS (perf's form) only the name of a function is
 * read and printed; a special name ("vtable for ...") and a name local
 * to a function ("f()::x") are whole in both forms, as in libiberty.
 *
 * Invariants and bounds: nodes come from one pool of four per input byte
 * (a name needs fewer; running out is a failure like any other); the
 * parser's recursion is capped at DM_DEPTH; the printer, which shared
 * substitutions can lead to print one node many times, stops at
 * DEMANGLE_MAX bytes of output, DM_DEPTH levels or DM_STEPS nodes
 * printed.  Any failure makes the whole name fail: the caller shows it
 * mangled.  The state (struct dm, with its substitution table), the pool
 * and the output are taken from xmalloc and freed before returning, but
 * for the output handed to the caller.
 *
 * Rust v0 is printed as it is parsed, in one pass: a backref ("B<n>_")
 * parses again what its position holds, so the same caps (depth, steps,
 * output) bound a chain of them.  Rust legacy is an Itanium nested name
 * whose last part is the hash; its parts are unescaped with the table
 * demangle_rust_tidy shares with stackcollapse.
 *
 * Rejected: calling __cxa_demangle (C++ only, and libstdc++ is not a
 * dependency of C11 programs) or libiberty (not installed everywhere,
 * and GPL); demangling a subset on the fly without a tree (function
 * pointers and template parameters need the tree).  What is not read
 * (expressions in template arguments, decltype, vendor qualifiers, Rust
 * v0's punycode and fn types) fails, by design, rather than print a
 * guess.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demangle.h"
#include "err.h"

#define DM_DEPTH	256
#define DM_SUBS		4096
#define DM_STEPS	1000000

enum kind {
	K_NAME,		/* s: a name or a piece of text printed as is */
	K_STD,		/* a standard abbreviation: s short, t long, a ctor name */
	K_QUAL,		/* a::b */
	K_TEMPLATE,	/* a<b> (b a K_LIST) */
	K_LIST,		/* a, then b (the rest, or NULL) */
	K_BUILTIN,	/* s */
	K_CV,		/* a with qualifiers num (CV_*) */
	K_PTR, K_LREF, K_RREF,
	K_FUNC,		/* return a (or NULL), parameters b, qualifiers num */
	K_ARRAY,	/* element a, dimension s */
	K_PTRMEM,	/* class a, member type b */
	K_CTOR, K_DTOR,	/* of the class named by a */
	K_OPER,		/* operator s */
	K_CONV,		/* operator a (a conversion) */
	K_LOCAL,	/* a::b, a an encoding */
	K_LAMBDA,	/* {lambda(b)#num} */
	K_UNNAMED,	/* {unnamed type#num} */
	K_SPECIAL,	/* s then a */
	K_CTORVT,	/* construction vtable for a-in-b */
	K_ENCODING,	/* name a, type b (a K_FUNC), or a alone */
	K_ABI,		/* a[abi:s] */
	K_CLONE,	/* a [clone s] */
	K_PACK,		/* an argument pack: the list a */
	K_EXPANSION,	/* a, once per element of the pack it names */
	K_LITERAL,	/* a literal s of type a */
	K_TPARAM,	/* template parameter num */
	K_VECTOR,	/* a __vector(s) */
};

enum { CV_RESTRICT = 1, CV_VOLATILE = 2, CV_CONST = 4, REF_L = 8, REF_R = 16 };

struct node {
	enum kind	 k;
	const char	*s, *t, *c;	/* text, and K_STD's long and ctor forms */
	size_t		 sn, tn, cn;
	struct node	*a, *b;
	long		 num;
};

struct dm {
	const char	*p, *e;		/* the input still to read */
	struct node	*pool;
	size_t		 npool, cap;
	struct node	*subs[DM_SUBS];
	size_t		 nsubs;
	int		 depth, fail;
	long		 steps;		/* printing and pack walks, capped */
	/* the printer */
	char		*out;
	size_t		 len;
	int		 lastc;		/* the last byte put, even if taken back */
	const struct node *targs;	/* template arguments of the function printed */
	long		 packidx;	/* the element an expansion is printing, or -1 */
	int		 pdepth;
};

static struct node *
mk(struct dm *d, enum kind k, struct node *a, struct node *b)
{
	struct node *n;

	if (d->npool == d->cap) {
		d->fail = 1;
		return NULL;
	}
	n = &d->pool[d->npool++];
	memset(n, 0, sizeof *n);
	n->k = k;
	n->a = a;
	n->b = b;
	return n;
}

static struct node *
mktext(struct dm *d, enum kind k, const char *s, size_t sn)
{
	struct node *n = mk(d, k, NULL, NULL);

	if (n) {
		n->s = s;
		n->sn = sn;
	}
	return n;
}

static int
peek(const struct dm *d)
{
	return d->p < d->e ? (unsigned char)*d->p : 0;
}

static int
peek2(const struct dm *d)
{
	return d->e - d->p >= 2 ? (unsigned char)d->p[1] : 0;
}

static int
eat(struct dm *d, int c)
{
	if (peek(d) != c || c == 0)
		return 0;
	d->p++;
	return 1;
}

static int
isdig(int c)
{
	return c >= '0' && c <= '9';
}

static int
isup(int c)
{
	return c >= 'A' && c <= 'Z';
}

static int
islow(int c)
{
	return c >= 'a' && c <= 'z';
}

/* A decimal number (bounded: no name has a component of 100 000 bytes). */
static long
number(struct dm *d)
{
	long v = 0;

	if (!isdig(peek(d)))
		return -1;
	while (isdig(peek(d))) {
		v = v * 10 + (*d->p++ - '0');
		if (v > 1000000)
			return -1;
	}
	return v;
}

/* [n] number: for literals and thunk offsets, kept as text. */
static int
signed_text(struct dm *d, const char **s, size_t *n)
{
	*s = d->p;
	eat(d, 'n');
	if (!isdig(peek(d)))
		return -1;
	while (isdig(peek(d)))
		d->p++;
	*n = (size_t)(d->p - *s);
	return 0;
}

/* <seq-id>_ : "_" is 0, base-36 digits n are n + 1. */
static long
seq_id(struct dm *d)
{
	long v = 0;

	if (eat(d, '_'))
		return 0;
	while (isdig(peek(d)) || isup(peek(d))) {
		int c = *d->p++;

		v = v * 36 + (isdig(c) ? c - '0' : c - 'A' + 10);
		if (v > 1000000)
			return -1;
	}
	return eat(d, '_') ? v + 1 : -1;
}

static void
add_sub(struct dm *d, struct node *n)
{
	if (n == NULL || d->nsubs == DM_SUBS)
		d->fail = 1;
	else
		d->subs[d->nsubs++] = n;
}

static struct node *type(struct dm *d);
static struct node *name(struct dm *d);

/* T_ or T<n>_ : resolved when printing, against the function's arguments. */
static struct node *
tparam(struct dm *d)
{
	struct node *n;
	long id;

	d->p++;
	if ((id = seq_id(d)) < 0 || (n = mk(d, K_TPARAM, NULL, NULL)) == NULL)
		return NULL;
	n->num = id;
	return n;
}
static struct node *encoding(struct dm *d, int top);
static struct node *template_args(struct dm *d);

/* Guards each recursive parse: too deep is a failure, not a crash. */
static int
enter(struct dm *d)
{
	if (d->fail || ++d->depth > DM_DEPTH) {
		d->fail = 1;
		return 0;
	}
	return 1;
}

static struct node *
leave(struct dm *d, struct node *n)
{
	d->depth--;
	if (n == NULL)
		d->fail = 1;
	return d->fail ? NULL : n;
}

static const struct {
	char code[3];
	const char *name;
} operators[] = {
	{ "aN", "&=" }, { "aS", "=" }, { "aa", "&&" }, { "ad", "&" },
	{ "an", "&" }, { "aw", "co_await" }, { "cl", "()" }, { "cm", "," },
	{ "co", "~" }, { "dV", "/=" }, { "da", "delete[]" }, { "de", "*" },
	{ "dl", "delete" }, { "dv", "/" }, { "eO", "^=" }, { "eo", "^" },
	{ "eq", "==" }, { "ge", ">=" }, { "gt", ">" }, { "ix", "[]" },
	{ "lS", "<<=" }, { "le", "<=" }, { "ls", "<<" }, { "lt", "<" },
	{ "mI", "-=" }, { "mL", "*=" }, { "mi", "-" }, { "ml", "*" },
	{ "mm", "--" }, { "na", "new[]" }, { "ne", "!=" }, { "ng", "-" },
	{ "nt", "!" }, { "nw", "new" }, { "oR", "|=" }, { "oo", "||" },
	{ "or", "|" }, { "pL", "+=" }, { "pl", "+" }, { "pm", "->*" },
	{ "pp", "++" }, { "ps", "+" }, { "pt", "->" }, { "qu", "?" },
	{ "rM", "%=" }, { "rS", ">>=" }, { "rm", "%" }, { "rs", ">>" },
	{ "ss", "<=>" },
};

static const struct {
	char code;
	const char *name;
} builtins[] = {
	{ 'a', "signed char" }, { 'b', "bool" }, { 'c', "char" },
	{ 'd', "double" }, { 'e', "long double" }, { 'f', "float" },
	{ 'g', "__float128" }, { 'h', "unsigned char" }, { 'i', "int" },
	{ 'j', "unsigned int" }, { 'l', "long" }, { 'm', "unsigned long" },
	{ 'n', "__int128" }, { 'o', "unsigned __int128" }, { 's', "short" },
	{ 't', "unsigned short" }, { 'v', "void" }, { 'w', "wchar_t" },
	{ 'x', "long long" }, { 'y', "unsigned long long" }, { 'z', "..." },
};

static const struct {
	char code;
	const char *name;
} dbuiltins[] = {
	{ 'a', "auto" }, { 'c', "decltype(auto)" }, { 'd', "decimal64" },
	{ 'e', "decimal128" }, { 'f', "decimal32" }, { 'h', "half" },
	{ 'i', "char32_t" }, { 'n', "decltype(nullptr)" }, { 's', "char16_t" },
	{ 'u', "char8_t" },
};

/* St Sa Sb Ss Si So Sd: short form, the long one, and a constructor's name. */
static const struct {
	char code;
	const char *s, *l, *c;
} stdsubs[] = {
	{ 'a', "std::allocator", "std::allocator", "allocator" },
	{ 'b', "std::basic_string", "std::basic_string", "basic_string" },
	{ 's', "std::string",
	  "std::basic_string<char, std::char_traits<char>, std::allocator<char> >",
	  "basic_string" },
	{ 'i', "std::istream", "std::basic_istream<char, std::char_traits<char> >",
	  "basic_istream" },
	{ 'o', "std::ostream", "std::basic_ostream<char, std::char_traits<char> >",
	  "basic_ostream" },
	{ 'd', "std::iostream", "std::basic_iostream<char, std::char_traits<char> >",
	  "basic_iostream" },
};

/*
 * S_, S<seq>_, or one of the standard abbreviations.  In a prefix that a
 * constructor or destructor follows, an abbreviation is written long
 * (and its last name is the constructor's), as __cxa_demangle does.
 */
static struct node *
substitution(struct dm *d, int prefix)
{
	int c;

	if (!eat(d, 'S'))
		return NULL;
	c = peek(d);
	if (c == '_' || isdig(c) || isup(c)) {
		long id = seq_id(d);

		if (id < 0 || (size_t)id >= d->nsubs)
			return NULL;
		return d->subs[id];
	}
	if (c == 't') {	/* std:: in a prefix */
		d->p++;
		return mktext(d, K_NAME, "std", 3);
	}
	for (size_t i = 0; i < sizeof stdsubs / sizeof stdsubs[0]; i++)
		if (stdsubs[i].code == c) {
			struct node *n = mk(d, K_STD, NULL, NULL);

			d->p++;
			if (n == NULL)
				return NULL;
			n->s = stdsubs[i].s;
			n->sn = strlen(n->s);
			n->t = stdsubs[i].l;
			n->tn = strlen(n->t);
			n->c = stdsubs[i].c;
			n->cn = strlen(n->c);
			n->num = prefix && (peek(d) == 'C' || peek(d) == 'D');
			return n;
		}
	return NULL;
}

/* <source-name>: a length, then that many bytes. */
static struct node *
source_name(struct dm *d)
{
	long n = number(d);

	if (n <= 0 || d->e - d->p < n)
		return NULL;
	d->p += n;
	if (n >= 10 && memcmp(d->p - n, "_GLOBAL_", 8) == 0 &&
	    (d->p[-n + 8] == '.' || d->p[-n + 8] == '_' || d->p[-n + 8] == '$') &&
	    d->p[-n + 9] == 'N')
		return mktext(d, K_NAME, "(anonymous namespace)", 21);
	return mktext(d, K_NAME, d->p - n, (size_t)n);
}

/* Parameters up to E: a K_LIST, or NULL for "v" alone (no parameters). */
static struct node *
params(struct dm *d, int *ok)
{
	struct node *head = NULL, **tail = &head;

	*ok = 0;
	if (peek(d) == 'v' && (peek2(d) == 'E' || peek2(d) == 0 || peek2(d) == '.')) {
		d->p++;
		*ok = 1;
		return NULL;
	}
	while (peek(d) && peek(d) != 'E' && peek(d) != '.' && !d->fail) {
		/* ref-qualifiers of a function type end its parameters */
		if ((peek(d) == 'R' || peek(d) == 'O') && peek2(d) == 'E')
			break;
		struct node *t = type(d);

		if (t == NULL)
			return NULL;
		*tail = mk(d, K_LIST, t, NULL);
		if (*tail == NULL)
			return NULL;
		tail = &(*tail)->b;
	}
	*ok = head != NULL;
	return head;
}

/* Ut [n] _ and Ul <params> E [n] _ */
static struct node *
unnamed(struct dm *d)
{
	struct node *n;
	long num = 0;
	int ok = 0;

	d->p++;
	if (eat(d, 't')) {
		n = mk(d, K_UNNAMED, NULL, NULL);
	} else if (eat(d, 'l')) {
		if (peek(d) == 'T')	/* auto parameters: not read */
			return NULL;
		n = mk(d, K_LAMBDA, NULL, NULL);
		if (n)
			n->b = params(d, &ok);
		if (!ok || !eat(d, 'E'))
			return NULL;
	} else {
		return NULL;
	}
	if (!eat(d, '_')) {
		if ((num = number(d)) < 0 || !eat(d, '_'))
			return NULL;
		num++;
	}
	if (n)
		n->num = num + 1;
	return n;
}

/* B <source-name>, as many as there are. */
static struct node *
abi_tags(struct dm *d, struct node *n)
{
	while (n && peek(d) == 'B') {
		d->p++;
		struct node *t = source_name(d);

		if (t == NULL)
			return NULL;
		n = mk(d, K_ABI, n, NULL);
		if (n) {
			n->s = t->s;
			n->sn = t->sn;
		}
	}
	return n;
}

/*
 * <unqualified-name>: a source name, an operator, a constructor or
 * destructor of prefix (the class), or a lambda or unnamed type.
 */
static struct node *
unqualified(struct dm *d, struct node *prefix)
{
	struct node *n = NULL;
	int c = peek(d);

	if (!enter(d))
		return NULL;
	if (c == 'L') {	/* internal linkage */
		d->p++;
		c = peek(d);
	}
	if (isdig(c)) {
		n = source_name(d);
	} else if (c == 'C' && prefix) {
		int k = peek2(d);

		if (k < '1' || k > '5')
			return leave(d, NULL);
		d->p += 2;
		n = mk(d, K_CTOR, prefix, NULL);
	} else if (c == 'D' && prefix && (peek2(d) == '0' || peek2(d) == '1' ||
	    peek2(d) == '2' || peek2(d) == '4' || peek2(d) == '5')) {
		d->p += 2;
		n = mk(d, K_DTOR, prefix, NULL);
	} else if (c == 'U') {
		n = unnamed(d);
	} else if (c == 'c' && peek2(d) == 'v') {
		d->p += 2;
		struct node *t = type(d);

		n = t ? mk(d, K_CONV, t, NULL) : NULL;
	} else if (c == 'l' && peek2(d) == 'i') {
		d->p += 2;
		struct node *t = source_name(d);

		if (t) {
			n = mk(d, K_OPER, NULL, NULL);
			if (n) {
				n->s = "\"\" ";
				n->sn = 3;
				n->b = t;
			}
		}
	} else if (islow(c)) {
		for (size_t i = 0; i < sizeof operators / sizeof operators[0]; i++)
			if (operators[i].code[0] == c && operators[i].code[1] == peek2(d)) {
				d->p += 2;
				n = mktext(d, K_OPER, operators[i].name,
				    strlen(operators[i].name));
				break;
			}
	}
	/* a discriminator of an internal name is not shown */
	return leave(d, abi_tags(d, n));
}

/* N [CV] [ref] <prefix> <unqualified-name> E; quals into *q. */
static struct node *
nested(struct dm *d, long *q)
{
	struct node *n = NULL, *c;

	d->p++;
	*q = 0;
	if (eat(d, 'r'))
		*q |= CV_RESTRICT;
	if (eat(d, 'V'))
		*q |= CV_VOLATILE;
	if (eat(d, 'K'))
		*q |= CV_CONST;
	if (eat(d, 'R'))
		*q |= REF_L;
	else if (eat(d, 'O'))
		*q |= REF_R;
	for (;;) {
		int p = peek(d);

		if (d->fail || p == 0)
			return NULL;
		if (p == 'E') {
			d->p++;
			return n;
		}
		if (p == 'S') {
			c = substitution(d, 1);
		} else if (p == 'I') {
			if (n == NULL)
				return NULL;
			c = template_args(d);
		} else if (p == 'T') {
			c = tparam(d);
		} else if (p == 'D' && (peek2(d) == 't' || peek2(d) == 'T')) {
			return NULL;
		} else if (p == 'M') {	/* a lambda's initializer scope */
			if (n == NULL)
				return NULL;
			d->p++;
			continue;
		} else {
			c = unqualified(d, n);
		}
		if (c == NULL)
			return NULL;
		if (n == NULL)
			n = c;
		else
			n = mk(d, p == 'I' ? K_TEMPLATE : K_QUAL, n, c);
		if (p != 'S' && peek(d) != 'E')
			add_sub(d, n);
	}
}

/* Z <encoding> E <entity> [<discriminator>], or Z <encoding> E s */
static struct node *name_q(struct dm *d, long *q);

/* ...; the qualifiers of a member function named so into *q. */
static struct node *
local(struct dm *d, long *q)
{
	struct node *f, *e;

	d->p++;
	f = encoding(d, 0);
	if (f == NULL || !eat(d, 'E'))
		return NULL;
	if (eat(d, 's')) {
		e = mktext(d, K_NAME, "string literal", 14);
	} else {
		if (eat(d, 'd')) {	/* a default argument's scope */
			if (peek(d) != '_' && number(d) < 0)
				return NULL;
			if (!eat(d, '_'))
				return NULL;
		}
		e = name_q(d, q);
	}
	if (e == NULL)
		return NULL;
	/* _ <digit> or __ <number> _: a discriminator, not shown */
	if (peek(d) == '_') {
		d->p++;
		if (eat(d, '_')) {
			if (number(d) < 0 || !eat(d, '_'))
				return NULL;
		} else if (number(d) < 0) {
			return NULL;
		}
	}
	return mk(d, K_LOCAL, f, e);
}

/* <name>; method qualifiers of a nested name into *q. */
static struct node *
name_q(struct dm *d, long *q)
{
	struct node *n;
	int c = peek(d);

	*q = 0;
	if (!enter(d))
		return NULL;
	if (c == 'N')
		return leave(d, nested(d, q));
	if (c == 'Z')
		return leave(d, local(d, q));
	if (c == 'S' && peek2(d) == 't') {
		d->p += 2;
		struct node *u = unqualified(d, NULL);

		n = u ? mk(d, K_QUAL, mktext(d, K_NAME, "std", 3), u) : NULL;
		if (n && peek(d) == 'I') {
			add_sub(d, n);
			n = mk(d, K_TEMPLATE, n, template_args(d));
		}
		return leave(d, n);
	}
	if (c == 'S') {
		n = substitution(d, 0);
		if (n && peek(d) == 'I')
			n = mk(d, K_TEMPLATE, n, template_args(d));
		return leave(d, n);
	}
	n = unqualified(d, NULL);
	if (n && peek(d) == 'I') {
		add_sub(d, n);
		n = mk(d, K_TEMPLATE, n, template_args(d));
	}
	return leave(d, n);
}

static struct node *
name(struct dm *d)
{
	long q;

	return name_q(d, &q);
}

/* L <type> <value> E, or L _Z <encoding> E */
static struct node *
literal(struct dm *d)
{
	struct node *n, *t;

	d->p++;
	if (peek(d) == '_' && peek2(d) == 'Z') {
		d->p += 2;
		n = encoding(d, 0);
		return n && eat(d, 'E') ? n : NULL;
	}
	if (peek(d) == 'Z') {
		d->p++;
		n = encoding(d, 0);
		return n && eat(d, 'E') ? n : NULL;
	}
	if ((t = type(d)) == NULL)
		return NULL;
	n = mk(d, K_LITERAL, t, NULL);
	if (n == NULL)
		return NULL;
	if (t->k == K_BUILTIN && t->sn == 17 && memcmp(t->s, "decltype(nullptr)", 17) == 0 &&
	    peek(d) == 'E') {
		n->s = "0";
		n->sn = 1;
	} else if (signed_text(d, &n->s, &n->sn) != 0) {
		return NULL;
	}
	return eat(d, 'E') ? n : NULL;
}

/* One template argument. */
static struct node *
template_arg(struct dm *d)
{
	struct node *head = NULL, **tail = &head;

	switch (peek(d)) {
	case 'L':
		return literal(d);
	case 'X':
		return NULL;	/* expressions are not read */
	case 'J':
		d->p++;
		while (peek(d) != 'E') {
			struct node *a = template_arg(d);

			if (a == NULL)
				return NULL;
			if ((*tail = mk(d, K_LIST, a, NULL)) == NULL)
				return NULL;
			tail = &(*tail)->b;
		}
		d->p++;
		return mk(d, K_PACK, head, NULL);
	default:
		return type(d);
	}
}

/* I <template-arg>+ E, as a K_LIST (NULL for none, as an empty pack). */
static struct node *
template_args(struct dm *d)
{
	struct node *head = NULL, **tail = &head;

	if (!enter(d))
		return NULL;
	d->p++;
	while (peek(d) != 'E') {
		struct node *a = template_arg(d);

		if (a == NULL || (*tail = mk(d, K_LIST, a, NULL)) == NULL)
			return leave(d, NULL);
		tail = &(*tail)->b;
	}
	d->p++;
	if (head == NULL)	/* <> : keep a node to print it */
		head = mk(d, K_LIST, NULL, NULL);
	return leave(d, head);
}

/* F [Y] <return type> <parameters> [R|O] E */
static struct node *
function_type(struct dm *d)
{
	struct node *f, *r;
	int ok;

	d->p++;
	eat(d, 'Y');
	if ((r = type(d)) == NULL)
		return NULL;
	f = mk(d, K_FUNC, r, NULL);
	if (f == NULL)
		return NULL;
	f->b = params(d, &ok);
	if (!ok)
		return NULL;
	if (eat(d, 'R'))
		f->num |= REF_L;
	else if (eat(d, 'O'))
		f->num |= REF_R;
	return eat(d, 'E') ? f : NULL;
}

static struct node *
type(struct dm *d)
{
	struct node *n = NULL;
	int c, sub = 1;

	if (!enter(d))
		return NULL;
	c = peek(d);
	for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
		if (builtins[i].code == c) {
			d->p++;
			return leave(d, mktext(d, K_BUILTIN, builtins[i].name,
			    strlen(builtins[i].name)));
		}
	switch (c) {
	case 'r': case 'V': case 'K': {
		long q = 0;

		if (eat(d, 'r'))
			q |= CV_RESTRICT;
		if (eat(d, 'V'))
			q |= CV_VOLATILE;
		if (eat(d, 'K'))
			q |= CV_CONST;
		/* qualifiers of a member function's type apply to "this": the
		 * unqualified function type is no substitution */
		struct node *t = peek(d) == 'F' ? function_type(d) : type(d);

		n = t ? mk(d, K_CV, t, NULL) : NULL;
		if (n)
			n->num = q;
		break;
	}
	case 'P':
		d->p++;
		n = mk(d, K_PTR, type(d), NULL);
		break;
	case 'R':
		d->p++;
		n = mk(d, K_LREF, type(d), NULL);
		break;
	case 'O':
		d->p++;
		n = mk(d, K_RREF, type(d), NULL);
		break;
	case 'F':
		n = function_type(d);
		break;
	case 'A': {
		const char *s;
		size_t sn = 0;

		d->p++;
		s = d->p;
		if (isdig(peek(d))) {
			while (isdig(peek(d)))
				d->p++;
			sn = (size_t)(d->p - s);
		} else if (peek(d) != '_') {
			break;	/* an expression: not read */
		}
		if (!eat(d, '_'))
			break;
		n = mk(d, K_ARRAY, type(d), NULL);
		if (n) {
			n->s = s;
			n->sn = sn;
		}
		break;
	}
	case 'M': {
		d->p++;
		struct node *cl = type(d);

		n = cl ? mk(d, K_PTRMEM, cl, type(d)) : NULL;
		break;
	}
	case 'T': {
		n = tparam(d);
		if (n && peek(d) == 'I') {	/* a template template parameter */
			add_sub(d, n);
			n = mk(d, K_TEMPLATE, n, template_args(d));
		}
		break;
	}
	case 'S':
		if (peek2(d) == '_' || isdig(peek2(d)) || isup(peek2(d))) {
			n = substitution(d, 0);
			if (n && peek(d) == 'I')
				n = mk(d, K_TEMPLATE, n, template_args(d));
			else
				sub = 0;
		} else {
			n = name(d);
			if (n && n->k == K_STD)
				sub = 0;
		}
		break;
	case 'D':
		d->p++;
		c = peek(d);
		if (c == 'p') {
			d->p++;
			n = mk(d, K_EXPANSION, type(d), NULL);
			break;
		}
		if (c == 'v') {
			const char *s;

			size_t sn;

			d->p++;
			s = d->p;
			if (number(d) <= 0)
				break;
			sn = (size_t)(d->p - s);
			if (!eat(d, '_'))
				break;
			n = mk(d, K_VECTOR, type(d), NULL);
			if (n) {
				n->s = s;
				n->sn = sn;
			}
			break;
		}
		for (size_t i = 0; i < sizeof dbuiltins / sizeof dbuiltins[0]; i++)
			if (dbuiltins[i].code == c) {
				d->p++;
				return leave(d, mktext(d, K_BUILTIN, dbuiltins[i].name,
				    strlen(dbuiltins[i].name)));
			}
		break;	/* decltype and the rest: not read */
	case 'u':	/* a vendor's type */
		break;
	case 'N': case 'Z':
	case '0': case '1': case '2': case '3': case '4':
	case '5': case '6': case '7': case '8': case '9':
		n = name(d);
		break;
	default:
		break;
	}
	if (n && sub)
		add_sub(d, n);
	return leave(d, n);
}

/* Whether the function named n has its return type in the mangling. */
static int
has_return(const struct node *n)
{
	for (;;) {
		if (n == NULL)
			return 0;
		if (n->k == K_QUAL || n->k == K_LOCAL)
			n = n->b;
		else if (n->k == K_ABI)
			n = n->a;
		else
			break;
	}
	if (n->k != K_TEMPLATE)
		return 0;
	/* a constructor template's name is the class's, then its own */
	n = n->a;
	while (n && (n->k == K_ABI || n->k == K_QUAL))
		n = n->k == K_QUAL ? n->b : n->a;
	return n && n->k != K_CTOR && n->k != K_DTOR && n->k != K_CONV;
}

/* h <offset> _ or v <offset> _ <offset> _ */
static int
call_offset(struct dm *d)
{
	const char *s;
	size_t n;
	int c = peek(d);

	d->p++;
	if (c != 'h' && c != 'v')
		return -1;
	if (signed_text(d, &s, &n) != 0 || !eat(d, '_'))
		return -1;
	if (c == 'v' && (signed_text(d, &s, &n) != 0 || !eat(d, '_')))
		return -1;
	return 0;
}

static struct node *
special(struct dm *d, const char *what, struct node *of)
{
	struct node *n = of ? mk(d, K_SPECIAL, of, NULL) : NULL;

	if (n) {
		n->s = what;
		n->sn = strlen(what);
	}
	return n;
}

/* T... and G... */
static struct node *
special_name(struct dm *d)
{
	int c = *d->p++, k = peek(d);

	d->p++;
	if (c == 'T') {
		switch (k) {
		case 'V': return special(d, "vtable for ", type(d));
		case 'T': return special(d, "VTT for ", type(d));
		case 'I': return special(d, "typeinfo for ", type(d));
		case 'S': return special(d, "typeinfo name for ", type(d));
		case 'H': return special(d, "TLS init function for ", name(d));
		case 'W': return special(d, "TLS wrapper function for ", name(d));
		case 'h': case 'v':
			d->p--;
			if (call_offset(d) != 0)
				return NULL;
			return special(d, k == 'h' ? "non-virtual thunk to " :
			    "virtual thunk to ", encoding(d, 0));
		case 'c':
			if (call_offset(d) != 0 || call_offset(d) != 0)
				return NULL;
			return special(d, "covariant return thunk to ", encoding(d, 0));
		case 'C': {
			struct node *a = type(d), *n;

			if (a == NULL || number(d) < 0 || !eat(d, '_'))
				return NULL;
			n = mk(d, K_CTORVT, a, type(d));
			return n && n->b ? n : NULL;
		}
		default:
			return NULL;
		}
	}
	switch (k) {
	case 'V': return special(d, "guard variable for ", name(d));
	case 'R': {
		/* a decimal number follows, as __cxa_demangle reads it (the
		 * ABI's "<seq-id> _" form is not what it accepts) */
		struct node *n = special(d, "reference temporary #", name(d));
		long id = isdig(peek(d)) ? number(d) : 0;

		if (n == NULL || id < 0)
			return NULL;
		n->num = id;
		n->k = K_SPECIAL;
		n->t = "";	/* marks the number to print */
		return n;
	}
	case 'A': return special(d, "hidden alias for ", encoding(d, 0));
	case 'T':
		if (eat(d, 't'))
			return special(d, "transaction clone for ", encoding(d, 0));
		if (eat(d, 'n'))
			return special(d, "non-transaction clone for ", encoding(d, 0));
		return NULL;
	default:
		return NULL;
	}
}

/* <encoding>: a function (name and type), data (a name) or a special name. */
static struct node *
encoding(struct dm *d, int top)
{
	struct node *n, *f, *r = NULL;
	long q;
	int ok;

	if (!enter(d))
		return NULL;
	if ((peek(d) == 'T' && peek2(d) != '_' && !isdig(peek2(d))) || peek(d) == 'G')
		return leave(d, special_name(d));
	if ((n = name_q(d, &q)) == NULL)
		return leave(d, NULL);
	if (peek(d) == 0 || peek(d) == 'E' || (top && peek(d) == '.'))
		return leave(d, n->k == K_LOCAL || q == 0 ? mk(d, K_ENCODING, n, NULL) : NULL);
	if (has_return(n) && (r = type(d)) == NULL)
		return leave(d, NULL);
	f = mk(d, K_FUNC, r, NULL);
	if (f == NULL)
		return leave(d, NULL);
	f->b = params(d, &ok);
	f->num = q;
	if (!ok)
		return leave(d, NULL);
	return leave(d, mk(d, K_ENCODING, n, f));
}

/* .cold, .isra.0, .constprop.1.isra.0 ...: each [clone .x.N]. */
static struct node *
clones(struct dm *d, struct node *n)
{
	while (n && peek(d) == '.' && (islow(peek2(d)) || peek2(d) == '_' ||
	    isdig(peek2(d)))) {
		const char *s = d->p++;

		if (isdig(peek(d))) {
			while (isdig(peek(d)))
				d->p++;
		} else {
			while (islow(peek(d)) || peek(d) == '_')
				d->p++;
		}
		while (peek(d) == '.' && isdig(peek2(d))) {
			d->p++;
			while (isdig(peek(d)))
				d->p++;
		}
		n = mk(d, K_CLONE, n, NULL);
		if (n) {
			n->s = s;
			n->sn = (size_t)(d->p - s);
		}
	}
	return n;
}

/* The printer: text into d->out, failing past DEMANGLE_MAX. */

static void
put(struct dm *d, const char *s, size_t n)
{
	if (d->fail)
		return;
	if (d->len + n > DEMANGLE_MAX) {
		d->fail = 1;
		return;
	}
	memcpy(d->out + d->len, s, n);
	d->len += n;
	if (n)
		d->lastc = (unsigned char)s[n - 1];
}

static void
puts_(struct dm *d, const char *s)
{
	put(d, s, strlen(s));
}

/*
 * The byte last put, which an empty pack's comma, put then taken back,
 * leaves as ' ': so "A<B<C>, >" is printed "A<B<C>>" as __cxa_demangle
 * does (it looks at the last byte it appended, not at its buffer).
 */
static int
last(const struct dm *d)
{
	return d->lastc;
}

static void print(struct dm *d, const struct node *n);
static void print_type(struct dm *d, const struct node *n);
static void print_encoding(struct dm *d, const struct node *n, int ret);

static void
print_list(struct dm *d, const struct node *l)
{
	int first = 1;

	for (; l && !d->fail; l = l->b) {
		size_t before = d->len;

		if (l->a == NULL)
			continue;
		if (!first)
			put(d, ", ", 2);
		size_t mark = d->len;

		print(d, l->a);
		/* an empty pack prints nothing, and no comma either */
		if (d->len == mark && !first)
			d->len = before;
		else if (d->len > mark)
			first = 0;
	}
}

static void
print_params(struct dm *d, const struct node *f)
{
	put(d, "(", 1);
	print_list(d, f->b);
	put(d, ")", 1);
}

static void
print_quals(struct dm *d, long q)
{
	if (q & CV_CONST)
		puts_(d, " const");
	if (q & CV_VOLATILE)
		puts_(d, " volatile");
	if (q & CV_RESTRICT)
		puts_(d, " restrict");
	if (q & REF_L)
		puts_(d, " &");
	if (q & REF_R)
		puts_(d, " &&");
}

/* A template parameter's argument, in the function template being printed. */
static const struct node *
targ(struct dm *d, long i)
{
	const struct node *l = d->targs;

	for (; l && i > 0; i--)
		l = l->b;
	if (l == NULL || l->a == NULL) {
		d->fail = 1;
		return NULL;
	}
	return l->a;
}

/* The pack an expansion's pattern names: its length, or -1 for none. */
static long
pack_len(struct dm *d, const struct node *n, int depth)
{
	long r;

	if (n == NULL || depth > 64 || ++d->steps > DM_STEPS)
		return -1;
	if (n->k == K_TPARAM) {
		const struct node *a = targ(d, n->num);

		if (a == NULL || a->k != K_PACK)
			return -1;
		r = 0;
		for (const struct node *l = a->a; l; l = l->b)
			r++;
		return r;
	}
	if (n->k == K_EXPANSION)
		return -1;
	if ((r = pack_len(d, n->a, depth + 1)) >= 0)
		return r;
	return n->k == K_TEMPLATE || n->k == K_PTRMEM || n->k == K_LIST ||
	    n->k == K_QUAL || n->k == K_FUNC ? pack_len(d, n->b, depth + 1) : -1;
}

/* The constructor's name: the last component of its class, no arguments. */
static void
print_ctor_name(struct dm *d, const struct node *c)
{
	for (;;) {
		if (c->k == K_QUAL)
			c = c->b;
		else if (c->k == K_TEMPLATE)
			c = c->a;
		else
			break;
	}
	if (c->k == K_STD)
		put(d, c->c, c->cn);
	else if (c->k == K_ABI)
		print(d, c->a);
	else
		print(d, c);
}

/* T_ resolved, with the element an expansion is at if it is a pack. */
static const struct node *
resolve(struct dm *d, const struct node *t)
{
	const struct node *a = targ(d, t->num), *l;

	if (a == NULL || a->k != K_PACK)
		return a;
	if (d->packidx < 0) {
		d->fail = 1;
		return NULL;
	}
	l = a->a;
	for (long i = d->packidx; l && i > 0; i--)
		l = l->b;
	if (l == NULL)
		d->fail = 1;
	return l ? l->a : NULL;
}

/*
 * Declarators on a template parameter: the type is rebuilt on its
 * argument and printed, so that "RKT_" of char[14] is "char const (&)
 * [14]"; a reference to an argument that is itself a reference collapses
 * (& wins over &&), as the compiler did and as __cxa_demangle prints it.
 * mods[0..nm) are the declarators on t, outermost first.
 */
static void
collapse(struct dm *d, const struct node *t, const struct node **mods, size_t nm)
{
	const struct node *a = resolve(d, t), *saved = d->targs;
	struct node *col;
	enum kind k;
	size_t i = nm, top;
	long savedidx = d->packidx;

	if (a == NULL)
		return;
	col = xmalloc((nm + 1) * sizeof *col);
	col[0] = *a;
	if ((a->k == K_LREF || a->k == K_RREF) &&
	    (mods[i - 1]->k == K_LREF || mods[i - 1]->k == K_RREF)) {
		k = a->k;
		while (i > 0 && (mods[i - 1]->k == K_LREF || mods[i - 1]->k == K_RREF)) {
			if (mods[i - 1]->k == K_LREF)
				k = K_LREF;
			i--;
		}
		col[0].k = k;
	} else if (a->k == K_LREF || a->k == K_RREF) {
		d->fail = 1;	/* a pointer to a reference cannot be */
		free(col);
		return;
	}
	for (top = 0; i-- > 0;) {
		if (mods[i]->k == K_CV && col[top].k == K_CV) {
			/* "const" on a const argument is said once */
			col[top].num |= mods[i]->num;
			continue;
		}
		top++;
		col[top] = *mods[i];
		col[top].a = &col[top - 1];
	}
	d->targs = NULL;
	d->packidx = -1;
	print_type(d, &col[top]);
	d->targs = saved;
	d->packidx = savedidx;
	free(col);
}

/*
 * A type: declarators (pointers, references, qualifiers) gathered down to
 * what they apply to; a function or array inside them prints them within
 * its parentheses, "void (*)(int)", "int (&) [3]".
 */
static void
print_type(struct dm *d, const struct node *n)
{
	const struct node *mods[64], *base = n;
	size_t nm = 0;

	while (base && (base->k == K_PTR || base->k == K_LREF || base->k == K_RREF ||
	    (base->k == K_CV && base->a && base->a->k != K_FUNC))) {
		if (nm == 64) {
			d->fail = 1;
			return;
		}
		mods[nm++] = base;
		base = base->a;
	}
	if (base == NULL) {
		d->fail = 1;
		return;
	}
	if (base->k == K_TPARAM && nm > 0) {
		collapse(d, base, mods, nm);
		return;
	}
	const struct node *fn = NULL, *cls = NULL;
	long fq = 0;

	if (base->k == K_FUNC) {
		fn = base;
	} else if (base->k == K_CV && base->a && base->a->k == K_FUNC) {
		fn = base->a;
		fq = base->num;
	} else if (base->k == K_PTRMEM) {
		const struct node *m = base->b;

		cls = base->a;
		if (m && m->k == K_CV && m->a && m->a->k == K_FUNC) {
			fq = m->num;
			m = m->a;
		}
		if (m && m->k == K_FUNC) {
			fn = m;
		} else {
			print_type(d, m);
			put(d, " ", 1);
			print_type(d, cls);
			put(d, "::*", 3);
			cls = NULL;
			goto mods;
		}
	}
	if (fn || base->k == K_ARRAY) {
		if (fn) {
			if (fn->a)
				print_type(d, fn->a);
		} else {
			/* a const array is an array of const elements */
			struct node elem = { .k = K_CV, .a = base->a };

			while (nm > 0 && mods[nm - 1]->k == K_CV)
				elem.num |= mods[--nm]->num;
			print_type(d, elem.num ? &elem : base->a);
		}
		if (fn && nm == 0 && cls == NULL) {
			/* a bare function type: "void (int)" */
			put(d, " ", 1);
			print_params(d, fn);
			print_quals(d, fq | fn->num);
			return;
		}
		if (nm == 0 && cls == NULL) {
			put(d, " [", 2);
			put(d, base->s, base->sn);
			put(d, "]", 1);
			return;
		}
		put(d, " (", 2);
		if (cls) {
			print_type(d, cls);
			put(d, "::*", 3);
		}
		for (size_t i = nm; i-- > 0;) {
			const struct node *m = mods[i];

			if (m->k == K_PTR)
				put(d, "*", 1);
			else if (m->k == K_LREF)
				put(d, "&", 1);
			else if (m->k == K_RREF)
				put(d, "&&", 2);
			else
				print_quals(d, m->num);
		}
		put(d, ")", 1);
		if (fn) {
			print_params(d, fn);
			print_quals(d, fq | fn->num);
		} else {
			put(d, " [", 2);
			put(d, base->s, base->sn);
			put(d, "]", 1);
		}
		return;
	}
	print(d, base);
mods:
	for (size_t i = nm; i-- > 0;) {
		const struct node *m = mods[i];

		if (m->k == K_PTR)
			put(d, "*", 1);
		else if (m->k == K_LREF)
			put(d, "&", 1);
		else if (m->k == K_RREF)
			put(d, "&&", 2);
		else
			print_quals(d, m->num);
	}
}

/* The template arguments of the function an encoding names, if any. */
static const struct node *
name_targs(const struct node *n)
{
	for (;;) {
		if (n == NULL)
			return NULL;
		if (n->k == K_QUAL || n->k == K_LOCAL)
			n = n->b;
		else if (n->k == K_ABI)
			n = n->a;
		else
			break;
	}
	return n->k == K_TEMPLATE ? n->b : NULL;
}

static void
print_literal(struct dm *d, const struct node *n)
{
	const struct node *t = n->a;
	static const struct {
		const char *type, *suffix;
	} suf[] = {
		{ "int", "" }, { "unsigned int", "u" }, { "long", "l" },
		{ "unsigned long", "ul" }, { "long long", "ll" },
		{ "unsigned long long", "ull" },
	};
	const char *v = n->s;
	size_t vn = n->sn;

	if (t->k == K_BUILTIN) {
		if (t->sn == 4 && memcmp(t->s, "bool", 4) == 0 && vn == 1 &&
		    (v[0] == '0' || v[0] == '1')) {
			puts_(d, v[0] == '1' ? "true" : "false");
			return;
		}
		for (size_t i = 0; i < sizeof suf / sizeof suf[0]; i++)
			if (strlen(suf[i].type) == t->sn && memcmp(suf[i].type, t->s, t->sn) == 0) {
				if (vn && v[0] == 'n') {
					put(d, "-", 1);
					v++;
					vn--;
				}
				put(d, v, vn);
				puts_(d, suf[i].suffix);
				return;
			}
	}
	put(d, "(", 1);
	print_type(d, t);
	put(d, ")", 1);
	if (vn && v[0] == 'n') {
		put(d, "-", 1);
		v++;
		vn--;
	}
	put(d, v, vn);
}

/* A function: [return type] name(parameters) qualifiers; or data: a name. */
static void
print_encoding(struct dm *d, const struct node *n, int ret)
{
	const struct node *saved = d->targs, *f = n->b;
	long savedidx = d->packidx;
	const struct node *ta = name_targs(n->a);

	if (f == NULL) {
		print(d, n->a);
		return;
	}
	d->packidx = -1;
	if (ta)
		d->targs = ta;
	if (f->a && ret) {
		const struct node *r = f->a;

		/* a return type with declarators around a function would wrap
		 * the whole name: not read */
		while (r->k == K_PTR || r->k == K_LREF || r->k == K_RREF || r->k == K_CV)
			r = r->a;
		if (r->k == K_FUNC || r->k == K_ARRAY || r->k == K_PTRMEM) {
			d->fail = 1;
			return;
		}
		print_type(d, f->a);
		put(d, " ", 1);
	}
	d->targs = saved;
	print(d, n->a);
	if (ta)
		d->targs = ta;
	print_params(d, f);
	print_quals(d, f->num);
	d->targs = saved;
	d->packidx = savedidx;
}

static void
print(struct dm *d, const struct node *n)
{
	if (d->fail)
		return;
	if (n == NULL || ++d->pdepth > DM_DEPTH || ++d->steps > DM_STEPS) {
		d->fail = 1;
		return;
	}
	switch (n->k) {
	case K_NAME:
	case K_BUILTIN:
		put(d, n->s, n->sn);
		break;
	case K_STD:
		if (n->num)
			put(d, n->t, n->tn);
		else
			put(d, n->s, n->sn);
		break;
	case K_QUAL:
		print(d, n->a);
		put(d, "::", 2);
		print(d, n->b);
		break;
	case K_LOCAL:
		/* the function a name is local to, without its return type */
		if (n->a->k == K_ENCODING)
			print_encoding(d, n->a, 0);
		else
			print(d, n->a);
		put(d, "::", 2);
		print(d, n->b);
		break;
	case K_TEMPLATE:
		print(d, n->a);
		if (last(d) == '<')
			put(d, " ", 1);
		put(d, "<", 1);
		print_list(d, n->b);
		if (last(d) == '>')
			put(d, " ", 1);
		put(d, ">", 1);
		break;
	case K_LIST:
		print_list(d, n);
		break;
	case K_CV: case K_PTR: case K_LREF: case K_RREF:
	case K_FUNC: case K_ARRAY: case K_PTRMEM:
		print_type(d, n);
		break;
	case K_CTOR:
		print_ctor_name(d, n->a);
		break;
	case K_DTOR:
		put(d, "~", 1);
		print_ctor_name(d, n->a);
		break;
	case K_OPER:
		puts_(d, "operator");
		if (islow((unsigned char)n->s[0]))
			put(d, " ", 1);
		put(d, n->s, n->sn);
		if (n->b)
			print(d, n->b);
		break;
	case K_CONV:
		puts_(d, "operator ");
		print_type(d, n->a);
		break;
	case K_LAMBDA: {
		char num[24];
		int k;

		puts_(d, "{lambda(");
		print_list(d, n->b);
		k = snprintf(num, sizeof num, ")#%ld}", n->num);
		put(d, num, (size_t)k);
		break;
	}
	case K_UNNAMED: {
		char num[40];
		int k = snprintf(num, sizeof num, "{unnamed type#%ld}", n->num);

		put(d, num, (size_t)k);
		break;
	}
	case K_SPECIAL:
		put(d, n->s, n->sn);
		if (n->t) {
			char num[24];
			int k = snprintf(num, sizeof num, "%ld for ", n->num);

			put(d, num, (size_t)k);
		}
		print(d, n->a);
		break;
	case K_CTORVT:
		puts_(d, "construction vtable for ");
		print(d, n->b);
		puts_(d, "-in-");
		print(d, n->a);
		break;
	case K_ENCODING:
		print_encoding(d, n, 1);
		break;
	case K_ABI:
		print(d, n->a);
		puts_(d, "[abi:");
		put(d, n->s, n->sn);
		put(d, "]", 1);
		break;
	case K_CLONE:
		print(d, n->a);
		puts_(d, " [clone ");
		put(d, n->s, n->sn);
		put(d, "]", 1);
		break;
	case K_PACK:
		print_list(d, n->a);
		break;
	case K_EXPANSION: {
		long len = pack_len(d, n->a, 0), saved = d->packidx;

		if (len < 0) {
			d->fail = 1;
			break;
		}
		for (long i = 0; i < len && !d->fail; i++) {
			if (i)
				put(d, ", ", 2);
			d->packidx = i;
			print_type(d, n->a);
		}
		d->packidx = saved;
		break;
	}
	case K_LITERAL:
		print_literal(d, n);
		break;
	case K_TPARAM: {
		const struct node *a = targ(d, n->num);

		if (a == NULL)
			break;
		if (a->k == K_PACK) {
			const struct node *l = a->a;

			if (d->packidx < 0) {
				print(d, a);
				break;
			}
			for (long i = d->packidx; l && i > 0; i--)
				l = l->b;
			if (l == NULL) {
				d->fail = 1;
				break;
			}
			a = l->a;
		}
		/* the argument is printed outside the function's scope */
		const struct node *saved = d->targs;
		long savedidx = d->packidx;

		d->targs = NULL;
		d->packidx = -1;
		print(d, a);
		d->targs = saved;
		d->packidx = savedidx;
		break;
	}
	case K_VECTOR:
		print_type(d, n->a);
		puts_(d, " __vector(");
		put(d, n->s, n->sn);
		put(d, ")", 1);
		break;
	}
	d->pdepth--;
}

/*
 * Without DEMANGLE_PARAMS a function is its name alone, as perf shows it
 * (libiberty without DMGL_PARAMS): no return type, parameters,
 * qualifiers or clone suffixes, and what follows the name is not read.
 */
static struct node *
top(struct dm *d, int params)
{
	struct node *n;
	long q;

	if (params || (peek(d) == 'T' && peek2(d) != '_' && !isdig(peek2(d))) ||
	    peek(d) == 'G')
		return clones(d, encoding(d, 1));
	n = name_q(d, &q);
	d->p = d->e;
	return n;
}

static char *
cxx(const char *sym, size_t n, int params)
{
	struct dm *d = xmalloc(sizeof *d);
	struct node *root;
	char *r = NULL;

	memset(d, 0, sizeof *d);
	d->p = sym + 2;
	d->e = sym + n;
	d->cap = 4 * n + 32;
	d->pool = xmalloc(d->cap * sizeof *d->pool);
	d->packidx = -1;
	root = top(d, params);
	if (root && !d->fail && d->p == d->e) {
		d->out = xmalloc(DEMANGLE_MAX + 1);
		print(d, root);
		if (!d->fail && d->len > 0) {
			d->out[d->len] = '\0';
			r = d->out;
			d->out = NULL;
		}
		free(d->out);
	}
	free(d->pool);
	free(d);
	return r;
}

/*
 * Rust legacy: "_ZN" <source-name>+ "17h" <16 hex> "E", each name with
 * Rust's escapes.
 */
static const struct {
	const char *esc, *out;
} rust_escapes[] = {
	{ "$SP$", "@" }, { "$BP$", "*" }, { "$RF$", "&" },
	{ "$LT$", "<" }, { "$GT$", ">" }, { "$LP$", "(" },
	{ "$RP$", ")" }, { "$C$", "," }, { "$u7e$", "~" },
	{ "$u20$", " " }, { "$u27$", "'" }, { "$u3d$", "=" },
	{ "$u5b$", "[" }, { "$u5d$", "]" }, { "$u7b$", "{" },
	{ "$u7d$", "}" }, { "$u3b$", ";" }, { "$u2b$", "+" },
	{ "$u21$", "!" }, { "$u22$", "\"" },
};

/*
 * r[0..n) with Rust's escapes and ".." (for "::") undone, into buf; 0 when
 * strict and an escape is not one of the table's (a whole symbol is then
 * not Rust's), else what follows it is copied as it is.
 */
static size_t
rust_unescape(const char *r, const char *e, char *buf, int strict, int *bad)
{
	size_t n = 0, k;

	while (r < e) {
		if (*r == '.') {
			if (e - r >= 2 && r[1] == '.') {
				buf[n++] = ':';
				buf[n++] = ':';
				r += 2;
			} else {
				buf[n++] = *r++;
			}
		} else if (*r == '$') {
			for (k = 0; k < sizeof rust_escapes / sizeof rust_escapes[0]; k++) {
				size_t el = strlen(rust_escapes[k].esc);

				if ((size_t)(e - r) >= el &&
				    memcmp(r, rust_escapes[k].esc, el) == 0) {
					buf[n++] = rust_escapes[k].out[0];
					r += el;
					break;
				}
			}
			if (k == sizeof rust_escapes / sizeof rust_escapes[0]) {
				if (strict) {
					*bad = 1;
					return 0;
				}
				memcpy(buf + n, r, (size_t)(e - r));
				n += (size_t)(e - r);
				break;
			}
		} else {
			buf[n++] = *r++;
		}
	}
	return n;
}

static int
is_hash(const char *p, size_t n)
{
	if (n != 17 || p[0] != 'h')
		return 0;
	for (size_t i = 1; i < 17; i++)
		if (!isdig(p[i]) && !(p[i] >= 'a' && p[i] <= 'f'))
			return 0;
	return 1;
}

/* NULL when sym is not a Rust legacy symbol (then perhaps C++'s). */
static char *
rust_legacy(const char *sym, size_t n)
{
	const char *p = sym + 3, *e = sym + n, *last = NULL, *hash = NULL;
	size_t lastn = 0, len = 0;
	char *out;
	int bad = 0;

	/* a suffix LLVM adds ("E.llvm.123") is not part of the name */
	for (const char *q = p; q < e; q++)
		if (*q == 'E' && q + 1 < e && q[1] == '.') {
			e = q + 1;
			break;
		}
	if (e - p < 2 || e[-1] != 'E')
		return NULL;
	e--;
	/* the components: all source names, the last a hash */
	for (const char *q = p; q < e;) {
		size_t k = 0;

		if (!isdig(*q))
			return NULL;
		hash = q;
		while (q < e && isdig(*q) && k < 100000)
			k = k * 10 + (size_t)(*q++ - '0');
		if (k == 0 || (size_t)(e - q) < k)
			return NULL;
		last = q;
		lastn = k;
		q += k;
	}
	if (last == NULL || !is_hash(last, lastn))
		return NULL;
	out = xmalloc(2 * n + 1);
	for (const char *q = p; q < hash;) {
		size_t k = 0;

		while (isdig(*q))
			k = k * 10 + (size_t)(*q++ - '0');
		if (len) {
			out[len++] = ':';
			out[len++] = ':';
		}
		const char *r = q;

		/* "_$" starts a name that begins with an escape */
		if (k >= 2 && r[0] == '_' && r[1] == '$')
			r++;
		len += rust_unescape(r, q + k, out + len, 1, &bad);
		if (bad)
			break;
		q += k;
	}
	if (bad || len == 0 || len > DEMANGLE_MAX) {
		free(out);
		return NULL;
	}
	out[len] = '\0';
	return out;
}

size_t
demangle_rust_tidy(const char *fp, size_t fn, char *buf)
{
	const char *r, *e;
	int bad = 0;

	if (fn < 17 || !is_hash(fp + fn - 17, 17))
		return 0;
	r = fp;
	e = fp + fn - 17;
	if (e - r >= 2 && memcmp(e - 2, "::", 2) == 0)
		e -= 2;
	if (e - r >= 2 && r[0] == '_' && r[1] == '$')
		r++;
	return rust_unescape(r, e, buf, 0, &bad);
}

/*
 * Rust v0: "_R" [decimal] <path> [<instantiating crate>] [.suffix].
 * Printed as rustc-demangle's short form: no crate disambiguators.
 */
struct rv0 {
	const char	*s, *p, *e;
	char		*out;
	size_t		 len;
	int		 fail, depth, skip;	/* skip: parse without printing */
	long		 steps;
};

static void
rput(struct rv0 *r, const char *s, size_t n)
{
	if (r->fail || r->skip)
		return;
	if (r->len + n > DEMANGLE_MAX) {
		r->fail = 1;
		return;
	}
	memcpy(r->out + r->len, s, n);
	r->len += n;
}

static void
rputs(struct rv0 *r, const char *s)
{
	rput(r, s, strlen(s));
}

static int
rpeek(const struct rv0 *r)
{
	return r->p < r->e ? (unsigned char)*r->p : 0;
}

static int
reat(struct rv0 *r, int c)
{
	if (rpeek(r) != c || c == 0)
		return 0;
	r->p++;
	return 1;
}

/* <base-62-number>: "_" is 0, digits then "_" are n + 1. */
static int64_t
b62(struct rv0 *r)
{
	uint64_t v = 0;

	if (reat(r, '_'))
		return 0;
	while (rpeek(r) && rpeek(r) != '_') {
		int c = rpeek(r), x;

		if (isdig(c))
			x = c - '0';
		else if (islow(c))
			x = c - 'a' + 10;
		else if (isup(c))
			x = c - 'A' + 36;
		else
			return -1;
		r->p++;
		/* disambiguators are 64-bit hashes: saturate, as no backref or
		 * closure number is that large */
		v = v > ((uint64_t)1 << 56) ? ((uint64_t)1 << 62) : v * 62 + (uint64_t)x;
	}
	if (!reat(r, '_'))
		return -1;
	return (int64_t)v + 1;
}

static int
r_enter(struct rv0 *r)
{
	if (r->fail || ++r->depth > DM_DEPTH || ++r->steps > DM_STEPS) {
		r->fail = 1;
		return 0;
	}
	return 1;
}

static void rpath(struct rv0 *r, int intype);
static void rtype(struct rv0 *r);

/* [s <disambiguator>] <decimal> [_] <bytes>; punycode (u) is not read. */
static void
rident(struct rv0 *r, const char **s, size_t *n, int64_t *dis)
{
	size_t k = 0;

	*s = "";
	*n = 0;
	*dis = 0;
	if (reat(r, 's') && (*dis = b62(r) + 1) <= 0) {
		r->fail = 1;
		return;
	}
	if (rpeek(r) == 'u' || !isdig(rpeek(r))) {
		r->fail = 1;
		return;
	}
	/* "0" is a whole number: an empty name, then the next one's length */
	if (!reat(r, '0'))
		while (isdig(rpeek(r)) && k < 100000)
			k = k * 10 + (size_t)(*r->p++ - '0');
	reat(r, '_');
	if ((size_t)(r->e - r->p) < k) {
		r->fail = 1;
		return;
	}
	*s = r->p;
	*n = k;
	r->p += k;
}

/* B <base-62>: parse what the position names, where it is. */
static void
rbackref(struct rv0 *r, void (*f)(struct rv0 *, int), int arg)
{
	int64_t at = b62(r);
	const char *saved = r->p;

	if (at < 0 || at >= r->p - r->s - 1) {
		r->fail = 1;
		return;
	}
	r->p = r->s + at;
	f(r, arg);
	r->p = saved;
}

static void
rtype_arg(struct rv0 *r, int unused)
{
	(void)unused;
	rtype(r);
}

static void
rconst(struct rv0 *r, int unused)
{
	(void)unused;
	if (!r_enter(r))
		return;
	if (reat(r, 'B')) {
		rbackref(r, rconst, 0);
	} else if (reat(r, 'p')) {
		rput(r, "_", 1);
	} else {
		int c = rpeek(r);
		int neg = 0;
		uint64_t v = 0;

		r->p++;
		if (strchr("hmyjtsaxlinob", c) == NULL || c == 0) {
			r->fail = 1;
			r->depth--;
			return;
		}
		if (strchr("alinsx", c) && reat(r, 'n'))
			neg = 1;
		while (rpeek(r) && rpeek(r) != '_') {
			int x = rpeek(r);

			r->p++;
			if (isdig(x))
				x -= '0';
			else if (x >= 'a' && x <= 'f')
				x -= 'a' - 10;
			else
				r->fail = 1;
			if (v >> 60)
				r->fail = 1;
			v = v * 16 + (uint64_t)x;
		}
		if (!reat(r, '_'))
			r->fail = 1;
		if (c == 'b') {
			rputs(r, v ? "true" : "false");
		} else {
			char num[32];
			int k = snprintf(num, sizeof num, "%s%llu", neg ? "-" : "",
			    (unsigned long long)v);

			rput(r, num, (size_t)k);
		}
	}
	r->depth--;
}

/* I <path> <generic-arg>* E, or the args alone after the path */
static void
rgeneric_args(struct rv0 *r)
{
	int first = 1;

	rput(r, "<", 1);
	while (!r->fail && rpeek(r) != 'E' && rpeek(r)) {
		if (!first)
			rput(r, ", ", 2);
		first = 0;
		if (reat(r, 'L')) {
			if (b62(r) < 0)
				r->fail = 1;
			rput(r, "'_", 2);
		} else if (reat(r, 'K')) {
			rconst(r, 0);
		} else {
			rtype(r);
		}
	}
	if (!reat(r, 'E'))
		r->fail = 1;
	rput(r, ">", 1);
}

static void
rpath_arg(struct rv0 *r, int intype)
{
	rpath(r, intype);
}

static void
rpath(struct rv0 *r, int intype)
{
	const char *s;
	size_t n;
	int64_t dis;
	int c;

	if (!r_enter(r))
		return;
	c = rpeek(r);
	r->p++;
	switch (c) {
	case 'C':
		rident(r, &s, &n, &dis);
		rput(r, s, n);
		break;
	case 'N': {
		int ns = rpeek(r);

		r->p++;
		if (!isup(ns) && !islow(ns)) {
			r->fail = 1;
			break;
		}
		rpath(r, intype);
		rident(r, &s, &n, &dis);
		if (isup(ns)) {
			/* closures and shims: {closure#0}, {closure:name#0} */
			char num[32];
			int k = snprintf(num, sizeof num, "#%lld}", (long long)dis);

			rput(r, "::{", 3);
			if (ns == 'C')
				rputs(r, "closure");
			else if (ns == 'S')
				rputs(r, "shim");
			else {
				char nc = (char)ns;

				rput(r, &nc, 1);
			}
			if (n) {
				rput(r, ":", 1);
				rput(r, s, n);
			}
			rput(r, num, (size_t)k);
		} else if (n) {
			rput(r, "::", 2);
			rput(r, s, n);
		}
		break;
	}
	case 'M':	/* <impl-path> <type>: <type> */
		if (reat(r, 's') && b62(r) < 0)
			r->fail = 1;
		r->skip++;
		rpath(r, 0);
		r->skip--;
		rput(r, "<", 1);
		rtype(r);
		rput(r, ">", 1);
		break;
	case 'X':	/* <impl-path> <type> <path>: <type as path> */
		if (reat(r, 's') && b62(r) < 0)
			r->fail = 1;
		r->skip++;
		rpath(r, 0);
		r->skip--;
		/* fall through */
	case 'Y':
		rput(r, "<", 1);
		rtype(r);
		rputs(r, " as ");
		rpath(r, 1);
		rput(r, ">", 1);
		break;
	case 'I':
		rpath(r, intype);
		if (!intype)
			rput(r, "::", 2);
		rgeneric_args(r);
		break;
	case 'B':
		rbackref(r, rpath_arg, intype);
		break;
	default:
		r->fail = 1;
	}
	r->depth--;
}

static void
rtype(struct rv0 *r)
{
	static const char basic[] = "abcdefhijlmnostuvxyzp";
	static const char *const basicname[] = {
		"i8", "bool", "char", "f64", "str", "f32", "u8", "isize", "usize",
		"i32", "u32", "i128", "u128", "i16", "u16", "()", "...", "i64",
		"u64", "!", "_",
	};
	int c = rpeek(r);
	const char *b;

	if (!r_enter(r))
		return;
	if (c && islow(c) && (b = strchr(basic, c)) != NULL) {
		r->p++;
		rputs(r, basicname[b - basic]);
		r->depth--;
		return;
	}
	r->p++;
	switch (c) {
	case 'R': case 'Q':
		rput(r, "&", 1);
		if (reat(r, 'L')) {
			int64_t l = b62(r);

			if (l < 0)
				r->fail = 1;
			else if (l > 0)	/* named lifetimes: not read */
				r->fail = 1;
		}
		if (c == 'Q')
			rputs(r, "mut ");
		rtype(r);
		break;
	case 'P':
		rputs(r, "*const ");
		rtype(r);
		break;
	case 'O':
		rputs(r, "*mut ");
		rtype(r);
		break;
	case 'A':
		rput(r, "[", 1);
		rtype(r);
		rputs(r, "; ");
		rconst(r, 0);
		rput(r, "]", 1);
		break;
	case 'S':
		rput(r, "[", 1);
		rtype(r);
		rput(r, "]", 1);
		break;
	case 'T': {
		int k = 0;

		rput(r, "(", 1);
		while (!r->fail && rpeek(r) && rpeek(r) != 'E') {
			if (k++)
				rput(r, ", ", 2);
			rtype(r);
		}
		if (!reat(r, 'E'))
			r->fail = 1;
		if (k == 1)
			rput(r, ",", 1);
		rput(r, ")", 1);
		break;
	}
	case 'B':
		rbackref(r, rtype_arg, 0);
		break;
	case 'C': case 'N': case 'M': case 'X': case 'Y': case 'I':
		r->p--;
		rpath(r, 1);
		break;
	case 'D': {	/* dyn A + B, without associated type bindings */
		int k = 0;

		if (reat(r, 'G') && b62(r) < 0)
			r->fail = 1;
		rputs(r, "dyn ");
		while (!r->fail && rpeek(r) && rpeek(r) != 'E') {
			if (k++)
				rputs(r, " + ");
			rpath(r, 1);
			if (rpeek(r) == 'p')
				r->fail = 1;
		}
		if (!reat(r, 'E') || !reat(r, 'L') || b62(r) != 0)
			r->fail = 1;	/* a named lifetime is not read */
		break;
	}
	default:	/* fn pointers and the rest: not read */
		r->fail = 1;
	}
	r->depth--;
}

static char *
rust_v0(const char *sym, size_t n)
{
	struct rv0 r = { 0 };
	const char *e = sym + n;

	/* a suffix (".llvm.123") ends the symbol */
	for (const char *q = sym; q < e; q++)
		if (*q == '.') {
			e = q;
			break;
		}
	r.s = sym + 2;
	r.p = r.s;
	r.e = e;
	if (isdig(rpeek(&r)))	/* an encoding version: only 0 (none) is known */
		return NULL;
	r.out = xmalloc(DEMANGLE_MAX + 1);
	rpath(&r, 0);
	/* the instantiating crate, if any, is not shown */
	if (!r.fail && r.p < r.e) {
		r.skip++;
		rpath(&r, 0);
		r.skip--;
	}
	if (r.fail || r.p != r.e || r.len == 0) {
		free(r.out);
		return NULL;
	}
	r.out[r.len] = '\0';
	return r.out;
}

char *
demangle(const char *sym, size_t n, int flags)
{
	char *r;

	if (n > DEMANGLE_MAX)
		return NULL;
	if (n >= 4 && memcmp(sym, "_ZN", 3) == 0 && (r = rust_legacy(sym, n)) != NULL)
		return r;
	if (n >= 3 && memcmp(sym, "_Z", 2) == 0)
		return cxx(sym, n, flags & DEMANGLE_PARAMS);
	if (n >= 3 && memcmp(sym, "_R", 2) == 0)
		return rust_v0(sym, n);
	return NULL;
}
