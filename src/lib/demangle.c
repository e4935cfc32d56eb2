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
 * (expressions in template arguments, decltype, vendor qualifiers, a
 * declarator inside another as in "void (* [3])()", Rust v0's punycode
 * and fn types) fails, by design, rather than print a guess.
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
	K_DEFARG,	/* {default arg#num} */
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

/*
 * What both demanglers read and print with: the input still to read, the
 * output so far, and the failure that makes the whole name fail (nothing
 * is put after it).  Rust v0 prints as it parses, so skip > 0 is a part
 * it parses without printing; lastc is for C++'s printer.
 */
struct cur {
	const char	*p, *e;
	char		*out;		/* DEMANGLE_MAX + 1 bytes */
	size_t		 len;
	int		 lastc;		/* the last byte put, even if taken back */
	int		 fail, skip;
};

struct dm {
	struct cur	 c;
	struct node	*pool;
	size_t		 npool, cap;
	struct node	*subs[DM_SUBS];
	size_t		 nsubs;
	int		 depth;
	long		 steps;		/* printing and pack walks, capped */
	/* the printer */
	const struct node *targs;	/* template arguments of the function printed */
	long		 packidx;	/* the element an expansion is printing, or -1 */
	int		 pdepth;
};

static struct node *
mk(struct dm *d, enum kind k, struct node *a, struct node *b)
{
	struct node *n;

	if (d->npool == d->cap) {
		d->c.fail = 1;
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
peek(const struct cur *c)
{
	return c->p < c->e ? (unsigned char)*c->p : 0;
}

static int
peek2(const struct cur *c)
{
	return c->e - c->p >= 2 ? (unsigned char)c->p[1] : 0;
}

static int
eat(struct cur *c, int ch)
{
	if (peek(c) != ch || ch == 0)
		return 0;
	c->p++;
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
number(struct cur *c)
{
	long v = 0;

	if (!isdig(peek(c)))
		return -1;
	while (isdig(peek(c))) {
		v = v * 10 + (*c->p++ - '0');
		if (v > 1000000)
			return -1;
	}
	return v;
}

/* [n] number: for literals and thunk offsets, kept as text. */
static int
signed_text(struct dm *d, const char **s, size_t *n)
{
	*s = d->c.p;
	eat(&d->c, 'n');
	if (!isdig(peek(&d->c)))
		return -1;
	while (isdig(peek(&d->c)))
		d->c.p++;
	*n = (size_t)(d->c.p - *s);
	return 0;
}

/* <seq-id>_ : "_" is 0, base-36 digits n are n + 1. */
static long
seq_id(struct dm *d)
{
	long v = 0;

	if (eat(&d->c, '_'))
		return 0;
	while (isdig(peek(&d->c)) || isup(peek(&d->c))) {
		int c = *d->c.p++;

		v = v * 36 + (isdig(c) ? c - '0' : c - 'A' + 10);
		if (v > 1000000)
			return -1;
	}
	return eat(&d->c, '_') ? v + 1 : -1;
}

static void
add_sub(struct dm *d, struct node *n)
{
	if (n == NULL || d->nsubs == DM_SUBS)
		d->c.fail = 1;
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

	d->c.p++;
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
	if (d->c.fail || ++d->depth > DM_DEPTH) {
		d->c.fail = 1;
		return 0;
	}
	return 1;
}

static struct node *
leave(struct dm *d, struct node *n)
{
	d->depth--;
	if (n == NULL)
		d->c.fail = 1;
	return d->c.fail ? NULL : n;
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

	if (!eat(&d->c, 'S'))
		return NULL;
	c = peek(&d->c);
	if (c == '_' || isdig(c) || isup(c)) {
		long id = seq_id(d);

		if (id < 0 || (size_t)id >= d->nsubs)
			return NULL;
		return d->subs[id];
	}
	if (c == 't') {	/* std:: in a prefix */
		d->c.p++;
		return mktext(d, K_NAME, "std", 3);
	}
	for (size_t i = 0; i < sizeof stdsubs / sizeof stdsubs[0]; i++)
		if (stdsubs[i].code == c) {
			struct node *n = mk(d, K_STD, NULL, NULL);

			d->c.p++;
			if (n == NULL)
				return NULL;
			n->s = stdsubs[i].s;
			n->sn = strlen(n->s);
			n->t = stdsubs[i].l;
			n->tn = strlen(n->t);
			n->c = stdsubs[i].c;
			n->cn = strlen(n->c);
			n->num = prefix && (peek(&d->c) == 'C' || peek(&d->c) == 'D');
			return n;
		}
	return NULL;
}

/* <source-name>: a length, then that many bytes. */
static struct node *
source_name(struct dm *d)
{
	long n = number(&d->c);

	if (n <= 0 || d->c.e - d->c.p < n)
		return NULL;
	d->c.p += n;
	if (n >= 10 && memcmp(d->c.p - n, "_GLOBAL_", 8) == 0 &&
	    (d->c.p[-n + 8] == '.' || d->c.p[-n + 8] == '_' || d->c.p[-n + 8] == '$') &&
	    d->c.p[-n + 9] == 'N')
		return mktext(d, K_NAME, "(anonymous namespace)", 21);
	return mktext(d, K_NAME, d->c.p - n, (size_t)n);
}

/* Parameters up to E: a K_LIST, or NULL for "v" alone (no parameters). */
static struct node *
params(struct dm *d, int *ok)
{
	struct node *head = NULL, **tail = &head;

	*ok = 0;
	if (peek(&d->c) == 'v' && (peek2(&d->c) == 'E' || peek2(&d->c) == 0 || peek2(&d->c) == '.')) {
		d->c.p++;
		*ok = 1;
		return NULL;
	}
	while (peek(&d->c) && peek(&d->c) != 'E' && peek(&d->c) != '.' && !d->c.fail) {
		/* ref-qualifiers of a function type end its parameters */
		if ((peek(&d->c) == 'R' || peek(&d->c) == 'O') && peek2(&d->c) == 'E')
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

	d->c.p++;
	if (eat(&d->c, 't')) {
		n = mk(d, K_UNNAMED, NULL, NULL);
	} else if (eat(&d->c, 'l')) {
		if (peek(&d->c) == 'T')	/* auto parameters: not read */
			return NULL;
		n = mk(d, K_LAMBDA, NULL, NULL);
		if (n)
			n->b = params(d, &ok);
		if (!ok || !eat(&d->c, 'E'))
			return NULL;
	} else {
		return NULL;
	}
	if (!eat(&d->c, '_')) {
		if ((num = number(&d->c)) < 0 || !eat(&d->c, '_'))
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
	while (n && peek(&d->c) == 'B') {
		d->c.p++;
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
	int c = peek(&d->c);

	if (!enter(d))
		return NULL;
	if (c == 'L') {	/* internal linkage */
		d->c.p++;
		c = peek(&d->c);
	}
	if (isdig(c)) {
		n = source_name(d);
	} else if (c == 'C' && prefix) {
		int k = peek2(&d->c);

		if (k < '1' || k > '5')
			return leave(d, NULL);
		d->c.p += 2;
		n = mk(d, K_CTOR, prefix, NULL);
	} else if (c == 'D' && prefix && (peek2(&d->c) == '0' || peek2(&d->c) == '1' ||
	    peek2(&d->c) == '2' || peek2(&d->c) == '4' || peek2(&d->c) == '5')) {
		d->c.p += 2;
		n = mk(d, K_DTOR, prefix, NULL);
	} else if (c == 'U') {
		n = unnamed(d);
	} else if (c == 'c' && peek2(&d->c) == 'v') {
		d->c.p += 2;
		struct node *t = type(d);

		n = t ? mk(d, K_CONV, t, NULL) : NULL;
	} else if (c == 'l' && peek2(&d->c) == 'i') {
		d->c.p += 2;
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
			if (operators[i].code[0] == c && operators[i].code[1] == peek2(&d->c)) {
				d->c.p += 2;
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

	d->c.p++;
	*q = 0;
	if (eat(&d->c, 'r'))
		*q |= CV_RESTRICT;
	if (eat(&d->c, 'V'))
		*q |= CV_VOLATILE;
	if (eat(&d->c, 'K'))
		*q |= CV_CONST;
	if (eat(&d->c, 'R'))
		*q |= REF_L;
	else if (eat(&d->c, 'O'))
		*q |= REF_R;
	for (;;) {
		int p = peek(&d->c);

		if (d->c.fail || p == 0)
			return NULL;
		if (p == 'E') {
			d->c.p++;
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
		} else if (p == 'D' && (peek2(&d->c) == 't' || peek2(&d->c) == 'T')) {
			return NULL;
		} else if (p == 'M') {	/* a lambda's initializer scope */
			if (n == NULL)
				return NULL;
			d->c.p++;
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
		if (p != 'S' && peek(&d->c) != 'E')
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

	d->c.p++;
	f = encoding(d, 0);
	if (f == NULL || !eat(&d->c, 'E'))
		return NULL;
	if (eat(&d->c, 's')) {
		e = mktext(d, K_NAME, "string literal", 14);
	} else if (eat(&d->c, 'd')) {
		/* in a default argument: d_ is the last parameter's, d0_ the
		 * one before, "{default arg#1}", "#2" as __cxa_demangle says */
		long num = 0;
		struct node *arg;

		if (peek(&d->c) != '_' && (num = number(&d->c) + 1) <= 0)
			return NULL;
		if (!eat(&d->c, '_') || (arg = mk(d, K_DEFARG, NULL, NULL)) == NULL)
			return NULL;
		arg->num = num + 1;
		e = name_q(d, q);
		e = e ? mk(d, K_QUAL, arg, e) : NULL;
	} else {
		e = name_q(d, q);
	}
	if (e == NULL)
		return NULL;
	/* _ <digit> or __ <number> _: a discriminator, not shown */
	if (peek(&d->c) == '_') {
		d->c.p++;
		if (eat(&d->c, '_')) {
			if (number(&d->c) < 0 || !eat(&d->c, '_'))
				return NULL;
		} else if (number(&d->c) < 0) {
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
	int c = peek(&d->c);

	*q = 0;
	if (!enter(d))
		return NULL;
	if (c == 'N')
		return leave(d, nested(d, q));
	if (c == 'Z')
		return leave(d, local(d, q));
	if (c == 'S' && peek2(&d->c) == 't') {
		d->c.p += 2;
		struct node *u = unqualified(d, NULL);

		n = u ? mk(d, K_QUAL, mktext(d, K_NAME, "std", 3), u) : NULL;
		if (n && peek(&d->c) == 'I') {
			add_sub(d, n);
			n = mk(d, K_TEMPLATE, n, template_args(d));
		}
		return leave(d, n);
	}
	if (c == 'S') {
		n = substitution(d, 0);
		if (n && peek(&d->c) == 'I')
			n = mk(d, K_TEMPLATE, n, template_args(d));
		return leave(d, n);
	}
	n = unqualified(d, NULL);
	if (n && peek(&d->c) == 'I') {
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

	d->c.p++;
	if (peek(&d->c) == '_' && peek2(&d->c) == 'Z') {
		d->c.p += 2;
		n = encoding(d, 0);
		return n && eat(&d->c, 'E') ? n : NULL;
	}
	if (peek(&d->c) == 'Z') {
		d->c.p++;
		n = encoding(d, 0);
		return n && eat(&d->c, 'E') ? n : NULL;
	}
	if ((t = type(d)) == NULL)
		return NULL;
	n = mk(d, K_LITERAL, t, NULL);
	if (n == NULL)
		return NULL;
	if (t->k == K_BUILTIN && t->sn == 17 && memcmp(t->s, "decltype(nullptr)", 17) == 0 &&
	    peek(&d->c) == 'E') {
		n->s = "0";
		n->sn = 1;
	} else if (signed_text(d, &n->s, &n->sn) != 0) {
		return NULL;
	}
	return eat(&d->c, 'E') ? n : NULL;
}

/* One template argument. */
static struct node *
template_arg(struct dm *d)
{
	struct node *head = NULL, **tail = &head;

	switch (peek(&d->c)) {
	case 'L':
		return literal(d);
	case 'X':
		return NULL;	/* expressions are not read */
	case 'J':
		d->c.p++;
		while (peek(&d->c) != 'E') {
			struct node *a = template_arg(d);

			if (a == NULL)
				return NULL;
			if ((*tail = mk(d, K_LIST, a, NULL)) == NULL)
				return NULL;
			tail = &(*tail)->b;
		}
		d->c.p++;
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
	d->c.p++;
	while (peek(&d->c) != 'E') {
		struct node *a = template_arg(d);

		if (a == NULL || (*tail = mk(d, K_LIST, a, NULL)) == NULL)
			return leave(d, NULL);
		tail = &(*tail)->b;
	}
	d->c.p++;
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

	d->c.p++;
	eat(&d->c, 'Y');
	if ((r = type(d)) == NULL)
		return NULL;
	f = mk(d, K_FUNC, r, NULL);
	if (f == NULL)
		return NULL;
	f->b = params(d, &ok);
	if (!ok)
		return NULL;
	if (eat(&d->c, 'R'))
		f->num |= REF_L;
	else if (eat(&d->c, 'O'))
		f->num |= REF_R;
	return eat(&d->c, 'E') ? f : NULL;
}

static struct node *
type(struct dm *d)
{
	struct node *n = NULL;
	int c, sub = 1;

	if (!enter(d))
		return NULL;
	c = peek(&d->c);
	for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
		if (builtins[i].code == c) {
			d->c.p++;
			return leave(d, mktext(d, K_BUILTIN, builtins[i].name,
			    strlen(builtins[i].name)));
		}
	switch (c) {
	case 'r': case 'V': case 'K': {
		long q = 0;

		if (eat(&d->c, 'r'))
			q |= CV_RESTRICT;
		if (eat(&d->c, 'V'))
			q |= CV_VOLATILE;
		if (eat(&d->c, 'K'))
			q |= CV_CONST;
		/* qualifiers of a member function's type apply to "this": the
		 * unqualified function type is no substitution */
		struct node *t = peek(&d->c) == 'F' ? function_type(d) : type(d);

		n = t ? mk(d, K_CV, t, NULL) : NULL;
		if (n)
			n->num = q;
		break;
	}
	case 'P':
		d->c.p++;
		n = mk(d, K_PTR, type(d), NULL);
		break;
	case 'R':
		d->c.p++;
		n = mk(d, K_LREF, type(d), NULL);
		break;
	case 'O':
		d->c.p++;
		n = mk(d, K_RREF, type(d), NULL);
		break;
	case 'F':
		n = function_type(d);
		break;
	case 'A': {
		const char *s;
		size_t sn = 0;

		d->c.p++;
		s = d->c.p;
		if (isdig(peek(&d->c))) {
			while (isdig(peek(&d->c)))
				d->c.p++;
			sn = (size_t)(d->c.p - s);
		} else if (peek(&d->c) != '_') {
			break;	/* an expression: not read */
		}
		if (!eat(&d->c, '_'))
			break;
		n = mk(d, K_ARRAY, type(d), NULL);
		if (n) {
			n->s = s;
			n->sn = sn;
		}
		break;
	}
	case 'M': {
		d->c.p++;
		struct node *cl = type(d);

		n = cl ? mk(d, K_PTRMEM, cl, type(d)) : NULL;
		break;
	}
	case 'T': {
		n = tparam(d);
		if (n && peek(&d->c) == 'I') {	/* a template template parameter */
			add_sub(d, n);
			n = mk(d, K_TEMPLATE, n, template_args(d));
		}
		break;
	}
	case 'S':
		if (peek2(&d->c) == '_' || isdig(peek2(&d->c)) || isup(peek2(&d->c))) {
			n = substitution(d, 0);
			if (n && peek(&d->c) == 'I')
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
		d->c.p++;
		c = peek(&d->c);
		if (c == 'p') {
			d->c.p++;
			n = mk(d, K_EXPANSION, type(d), NULL);
			break;
		}
		if (c == 'v') {
			const char *s;

			size_t sn;

			d->c.p++;
			s = d->c.p;
			if (number(&d->c) <= 0)
				break;
			sn = (size_t)(d->c.p - s);
			if (!eat(&d->c, '_'))
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
				d->c.p++;
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
	int c = peek(&d->c);

	d->c.p++;
	if (c != 'h' && c != 'v')
		return -1;
	if (signed_text(d, &s, &n) != 0 || !eat(&d->c, '_'))
		return -1;
	if (c == 'v' && (signed_text(d, &s, &n) != 0 || !eat(&d->c, '_')))
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
	int c = *d->c.p++, k = peek(&d->c);

	d->c.p++;
	if (c == 'T') {
		switch (k) {
		case 'V': return special(d, "vtable for ", type(d));
		case 'T': return special(d, "VTT for ", type(d));
		case 'I': return special(d, "typeinfo for ", type(d));
		case 'S': return special(d, "typeinfo name for ", type(d));
		case 'H': return special(d, "TLS init function for ", name(d));
		case 'W': return special(d, "TLS wrapper function for ", name(d));
		case 'h': case 'v':
			d->c.p--;
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

			if (a == NULL || number(&d->c) < 0 || !eat(&d->c, '_'))
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
		long id = isdig(peek(&d->c)) ? number(&d->c) : 0;

		if (n == NULL || id < 0)
			return NULL;
		n->num = id;
		n->k = K_SPECIAL;
		n->t = "";	/* marks the number to print */
		return n;
	}
	case 'A': return special(d, "hidden alias for ", encoding(d, 0));
	case 'T':
		if (eat(&d->c, 't'))
			return special(d, "transaction clone for ", encoding(d, 0));
		if (eat(&d->c, 'n'))
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
	if ((peek(&d->c) == 'T' && peek2(&d->c) != '_' && !isdig(peek2(&d->c))) || peek(&d->c) == 'G')
		return leave(d, special_name(d));
	if ((n = name_q(d, &q)) == NULL)
		return leave(d, NULL);
	if (peek(&d->c) == 0 || peek(&d->c) == 'E' || (top && peek(&d->c) == '.'))
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
	while (n && peek(&d->c) == '.' && (islow(peek2(&d->c)) || peek2(&d->c) == '_' ||
	    isdig(peek2(&d->c)))) {
		const char *s = d->c.p++;

		if (isdig(peek(&d->c))) {
			while (isdig(peek(&d->c)))
				d->c.p++;
		} else {
			while (islow(peek(&d->c)) || peek(&d->c) == '_')
				d->c.p++;
		}
		while (peek(&d->c) == '.' && isdig(peek2(&d->c))) {
			d->c.p++;
			while (isdig(peek(&d->c)))
				d->c.p++;
		}
		n = mk(d, K_CLONE, n, NULL);
		if (n) {
			n->s = s;
			n->sn = (size_t)(d->c.p - s);
		}
	}
	return n;
}

/* The printer: text into c->out, failing past DEMANGLE_MAX. */

static void
put(struct cur *c, const char *s, size_t n)
{
	if (c->fail || c->skip)
		return;
	if (c->len + n > DEMANGLE_MAX) {
		c->fail = 1;
		return;
	}
	memcpy(c->out + c->len, s, n);
	c->len += n;
	if (n)
		c->lastc = (unsigned char)s[n - 1];
}

static void
puts_(struct cur *c, const char *s)
{
	put(c, s, strlen(s));
}

/*
 * The byte last put, which an empty pack's comma, put then taken back,
 * leaves as ' ': so "A<B<C>, >" is printed "A<B<C>>" as __cxa_demangle
 * does (it looks at the last byte it appended, not at its buffer).
 */
static int
last(const struct dm *d)
{
	return d->c.lastc;
}

static void print(struct dm *d, const struct node *n);
static void print_type(struct dm *d, const struct node *n);
static void print_encoding(struct dm *d, const struct node *n, int ret);

static void
print_list(struct dm *d, const struct node *l)
{
	int first = 1;

	for (; l && !d->c.fail; l = l->b) {
		size_t before = d->c.len;

		if (l->a == NULL)
			continue;
		if (!first)
			put(&d->c, ", ", 2);
		size_t mark = d->c.len;

		print(d, l->a);
		/* an empty pack prints nothing, and no comma either */
		if (d->c.len == mark && !first)
			d->c.len = before;
		else if (d->c.len > mark)
			first = 0;
	}
}

static void
print_params(struct dm *d, const struct node *f)
{
	put(&d->c, "(", 1);
	print_list(d, f->b);
	put(&d->c, ")", 1);
}

static void
print_quals(struct dm *d, long q)
{
	if (q & CV_CONST)
		puts_(&d->c, " const");
	if (q & CV_VOLATILE)
		puts_(&d->c, " volatile");
	if (q & CV_RESTRICT)
		puts_(&d->c, " restrict");
	if (q & REF_L)
		puts_(&d->c, " &");
	if (q & REF_R)
		puts_(&d->c, " &&");
}

/* A template parameter's argument, in the function template being printed. */
static const struct node *
targ(struct dm *d, long i)
{
	const struct node *l = d->targs;

	for (; l && i > 0; i--)
		l = l->b;
	if (l == NULL || l->a == NULL) {
		d->c.fail = 1;
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

/*
 * The constructor's name: the last component of its class, no arguments.
 * An unnamed class or closure has no name of its own: its constructor is
 * named after the scope it is in, "A::{unnamed type#1}::~A()", as
 * __cxa_demangle names it (after the last source name it read); with no
 * such scope it is not read.
 */
static void
print_ctor_name(struct dm *d, const struct node *c)
{
	for (;;) {
		if (c->k == K_QUAL)
			c = c->b->k == K_UNNAMED || c->b->k == K_LAMBDA ? c->a : c->b;
		else if (c->k == K_TEMPLATE)
			c = c->a;
		else
			break;
	}
	if (c->k == K_UNNAMED || c->k == K_LAMBDA)
		d->c.fail = 1;
	else if (c->k == K_STD)
		put(&d->c, c->c, c->cn);
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
		d->c.fail = 1;
		return NULL;
	}
	l = a->a;
	for (long i = d->packidx; l && i > 0; i--)
		l = l->b;
	if (l == NULL)
		d->c.fail = 1;
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
		d->c.fail = 1;	/* a pointer to a reference cannot be */
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

/* Pointer, reference and cv modifiers, innermost last, as they print. */
static void
print_mods(struct dm *d, const struct node *const *mods, size_t nm)
{
	for (size_t i = nm; i-- > 0;) {
		const struct node *m = mods[i];

		if (m->k == K_PTR)
			put(&d->c, "*", 1);
		else if (m->k == K_LREF)
			put(&d->c, "&", 1);
		else if (m->k == K_RREF)
			put(&d->c, "&&", 2);
		else
			print_quals(d, m->num);
	}
}

/*
 * What a type is under its pointers, references and qualifiers, a
 * template parameter taken for its argument; NULL when that is a pack or
 * an argument's own parameter, which are not followed.
 */
static const struct node *
under_mods(const struct dm *d, const struct node *t)
{
	const struct node *args = d->targs;

	for (int i = 0; t && i < DM_DEPTH; i++) {
		if (t->k == K_PTR || t->k == K_LREF || t->k == K_RREF || t->k == K_CV) {
			t = t->a;
		} else if (t->k == K_TPARAM && args) {
			const struct node *l = args;

			for (long j = t->num; l && j > 0; j--)
				l = l->b;
			if (l == NULL || l->a == NULL || l->a->k == K_PACK)
				return NULL;
			t = l->a;
			args = NULL;	/* the argument is read outside the function */
		} else {
			return t->k == K_TPARAM ? NULL : t;
		}
	}
	return NULL;
}

/*
 * Whether a type is one whose declarator must hold another: a function,
 * array, or pointer to member function under pointers or references, as
 * an array's element ("void (* [3])()"), a function's return type ("int
 * (*(*)())()") or a member pointer's type.  Such a nesting is not read.
 */
static int
wraps(const struct dm *d, const struct node *t)
{
	t = under_mods(d, t);
	if (t && t->k == K_PTRMEM) {
		t = t->b;
		if (t && t->k == K_CV)
			t = t->a;
	}
	return t && (t->k == K_FUNC || t->k == K_ARRAY);
}

/* " [2][3]": the dimensions of an array and of the arrays it holds. */
static void
print_dims(struct dm *d, const struct node *a)
{
	put(&d->c, " ", 1);
	for (; a && a->k == K_ARRAY; a = a->a) {
		put(&d->c, "[", 1);
		put(&d->c, a->s, a->sn);
		put(&d->c, "]", 1);
	}
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
			d->c.fail = 1;
			return;
		}
		/* a reference to a reference, which a substitution can make
		 * ("RS2_" of "RFvvE"), is one: & if either is, as the compiler
		 * collapsed it */
		if (nm > 0 && (base->k == K_LREF || base->k == K_RREF) &&
		    (mods[nm - 1]->k == K_LREF || mods[nm - 1]->k == K_RREF)) {
			if (base->k == K_LREF)
				mods[nm - 1] = base;
			base = base->a;
			continue;
		}
		mods[nm++] = base;
		base = base->a;
	}
	if (base == NULL) {
		d->c.fail = 1;
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
		} else if (wraps(d, m)) {
			d->c.fail = 1;
			return;
		} else {
			print_type(d, m);
			put(&d->c, " ", 1);
			print_type(d, cls);
			put(&d->c, "::*", 3);
			cls = NULL;
			goto mods;
		}
	}
	if (fn || base->k == K_ARRAY) {
		if (fn) {
			if (fn->a && wraps(d, fn->a)) {
				d->c.fail = 1;
				return;
			}
			if (fn->a)
				print_type(d, fn->a);
		} else {
			/* an array of arrays is its innermost element, then each
			 * dimension in order ("int (*) [2][3]"); a const array
			 * is an array of const elements */
			struct node *el = base->a;

			while (el && el->k == K_ARRAY)
				el = el->a;
			if (wraps(d, el)) {
				d->c.fail = 1;
				return;
			}
			struct node elem = { .k = K_CV, .a = el };

			while (nm > 0 && mods[nm - 1]->k == K_CV)
				elem.num |= mods[--nm]->num;
			print_type(d, elem.num ? &elem : el);
		}
		if (fn && nm == 0 && cls == NULL) {
			/* a bare function type: "void (int)" */
			put(&d->c, " ", 1);
			print_params(d, fn);
			print_quals(d, fq | fn->num);
			return;
		}
		if (nm == 0 && cls == NULL) {
			print_dims(d, base);
			return;
		}
		put(&d->c, " (", 2);
		if (cls) {
			print_type(d, cls);
			put(&d->c, "::*", 3);
		}
		print_mods(d, mods, nm);
		put(&d->c, ")", 1);
		if (fn) {
			print_params(d, fn);
			print_quals(d, fq | fn->num);
		} else {
			print_dims(d, base);
		}
		return;
	}
	print(d, base);
mods:
	print_mods(d, mods, nm);
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
			puts_(&d->c, v[0] == '1' ? "true" : "false");
			return;
		}
		for (size_t i = 0; i < sizeof suf / sizeof suf[0]; i++)
			if (strlen(suf[i].type) == t->sn && memcmp(suf[i].type, t->s, t->sn) == 0) {
				if (vn && v[0] == 'n') {
					put(&d->c, "-", 1);
					v++;
					vn--;
				}
				put(&d->c, v, vn);
				puts_(&d->c, suf[i].suffix);
				return;
			}
	}
	put(&d->c, "(", 1);
	print_type(d, t);
	put(&d->c, ")", 1);
	if (vn && v[0] == 'n') {
		put(&d->c, "-", 1);
		v++;
		vn--;
	}
	put(&d->c, v, vn);
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
		 * the whole name ("void (*f<void (*)()>())()"): not read */
		r = under_mods(d, r);
		if (r && (r->k == K_FUNC || r->k == K_ARRAY || r->k == K_PTRMEM)) {
			d->c.fail = 1;
			return;
		}
		print_type(d, f->a);
		put(&d->c, " ", 1);
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
	if (d->c.fail)
		return;
	if (n == NULL || ++d->pdepth > DM_DEPTH || ++d->steps > DM_STEPS) {
		d->c.fail = 1;
		return;
	}
	switch (n->k) {
	case K_NAME:
	case K_BUILTIN:
		put(&d->c, n->s, n->sn);
		break;
	case K_STD:
		if (n->num)
			put(&d->c, n->t, n->tn);
		else
			put(&d->c, n->s, n->sn);
		break;
	case K_QUAL:
		print(d, n->a);
		put(&d->c, "::", 2);
		print(d, n->b);
		break;
	case K_LOCAL:
		/* the function a name is local to, without its return type */
		if (n->a->k == K_ENCODING)
			print_encoding(d, n->a, 0);
		else
			print(d, n->a);
		put(&d->c, "::", 2);
		print(d, n->b);
		break;
	case K_TEMPLATE:
		print(d, n->a);
		if (last(d) == '<')
			put(&d->c, " ", 1);
		put(&d->c, "<", 1);
		print_list(d, n->b);
		if (last(d) == '>')
			put(&d->c, " ", 1);
		put(&d->c, ">", 1);
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
		put(&d->c, "~", 1);
		print_ctor_name(d, n->a);
		break;
	case K_OPER:
		puts_(&d->c, "operator");
		if (islow((unsigned char)n->s[0]))
			put(&d->c, " ", 1);
		put(&d->c, n->s, n->sn);
		if (n->b)
			print(d, n->b);
		break;
	case K_CONV:
		puts_(&d->c, "operator ");
		print_type(d, n->a);
		break;
	case K_LAMBDA: {
		char num[24];
		int k;

		puts_(&d->c, "{lambda(");
		print_list(d, n->b);
		k = snprintf(num, sizeof num, ")#%ld}", n->num);
		put(&d->c, num, (size_t)k);
		break;
	}
	case K_UNNAMED:
	case K_DEFARG: {
		char num[40];
		int k = snprintf(num, sizeof num, n->k == K_UNNAMED ? "{unnamed type#%ld}" :
		    "{default arg#%ld}", n->num);

		put(&d->c, num, (size_t)k);
		break;
	}
	case K_SPECIAL:
		put(&d->c, n->s, n->sn);
		if (n->t) {
			char num[24];
			int k = snprintf(num, sizeof num, "%ld for ", n->num);

			put(&d->c, num, (size_t)k);
		}
		print(d, n->a);
		break;
	case K_CTORVT:
		puts_(&d->c, "construction vtable for ");
		print(d, n->b);
		puts_(&d->c, "-in-");
		print(d, n->a);
		break;
	case K_ENCODING:
		print_encoding(d, n, 1);
		break;
	case K_ABI:
		print(d, n->a);
		puts_(&d->c, "[abi:");
		put(&d->c, n->s, n->sn);
		put(&d->c, "]", 1);
		break;
	case K_CLONE:
		print(d, n->a);
		puts_(&d->c, " [clone ");
		put(&d->c, n->s, n->sn);
		put(&d->c, "]", 1);
		break;
	case K_PACK:
		print_list(d, n->a);
		break;
	case K_EXPANSION: {
		long len = pack_len(d, n->a, 0), saved = d->packidx;

		if (len < 0) {
			d->c.fail = 1;
			break;
		}
		for (long i = 0; i < len && !d->c.fail; i++) {
			if (i)
				put(&d->c, ", ", 2);
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
				d->c.fail = 1;
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
		puts_(&d->c, " __vector(");
		put(&d->c, n->s, n->sn);
		put(&d->c, ")", 1);
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

	if (params || (peek(&d->c) == 'T' && peek2(&d->c) != '_' && !isdig(peek2(&d->c))) ||
	    peek(&d->c) == 'G')
		return clones(d, encoding(d, 1));
	n = name_q(d, &q);
	d->c.p = d->c.e;
	return n;
}

static char *
cxx(const char *sym, size_t n, int params)
{
	struct dm *d = xmalloc(sizeof *d);
	struct node *root;
	char *r = NULL;

	memset(d, 0, sizeof *d);
	d->c.p = sym + 2;
	d->c.e = sym + n;
	d->cap = 4 * n + 32;
	d->pool = xmalloc(d->cap * sizeof *d->pool);
	d->packidx = -1;
	root = top(d, params);
	if (root && !d->c.fail && d->c.p == d->c.e) {
		d->c.out = xmalloc(DEMANGLE_MAX + 1);
		print(d, root);
		if (!d->c.fail && d->c.len > 0) {
			d->c.out[d->c.len] = '\0';
			r = d->c.out;
			d->c.out = NULL;
		}
		free(d->c.out);
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
	struct cur	 c;
	const char	*s;		/* the input's start, which backrefs count from */
	int		 depth;
	long		 steps;
};

/* <base-62-number>: "_" is 0, digits then "_" are n + 1. */
static int64_t
b62(struct rv0 *r)
{
	uint64_t v = 0;

	if (eat(&r->c, '_'))
		return 0;
	while (peek(&r->c) && peek(&r->c) != '_') {
		int c = peek(&r->c), x;

		if (isdig(c))
			x = c - '0';
		else if (islow(c))
			x = c - 'a' + 10;
		else if (isup(c))
			x = c - 'A' + 36;
		else
			return -1;
		r->c.p++;
		/* disambiguators are 64-bit hashes: saturate, as no backref or
		 * closure number is that large */
		v = v > ((uint64_t)1 << 56) ? ((uint64_t)1 << 62) : v * 62 + (uint64_t)x;
	}
	if (!eat(&r->c, '_'))
		return -1;
	return (int64_t)v + 1;
}

static int
r_enter(struct rv0 *r)
{
	if (r->c.fail || ++r->depth > DM_DEPTH || ++r->steps > DM_STEPS) {
		r->c.fail = 1;
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
	long k = 0;

	*s = "";
	*n = 0;
	*dis = 0;
	if (eat(&r->c, 's') && (*dis = b62(r) + 1) <= 0) {
		r->c.fail = 1;
		return;
	}
	/* "0" is a whole number: an empty name, then the next one's length */
	if (peek(&r->c) == 'u' || (!eat(&r->c, '0') && (k = number(&r->c)) < 0)) {
		r->c.fail = 1;
		return;
	}
	eat(&r->c, '_');
	if (r->c.e - r->c.p < k) {
		r->c.fail = 1;
		return;
	}
	*s = r->c.p;
	*n = (size_t)k;
	r->c.p += k;
}

/* B <base-62>: parse what the position names, where it is. */
static void
rbackref(struct rv0 *r, void (*f)(struct rv0 *, int), int arg)
{
	int64_t at = b62(r);
	const char *saved = r->c.p;

	if (at < 0 || at >= r->c.p - r->s - 1) {
		r->c.fail = 1;
		return;
	}
	r->c.p = r->s + at;
	f(r, arg);
	r->c.p = saved;
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
	if (eat(&r->c, 'B')) {
		rbackref(r, rconst, 0);
	} else if (eat(&r->c, 'p')) {
		put(&r->c, "_", 1);
	} else {
		int c = peek(&r->c);
		int neg = 0;
		uint64_t v = 0;

		r->c.p++;
		if (strchr("hmyjtsaxlinob", c) == NULL || c == 0) {
			r->c.fail = 1;
			r->depth--;
			return;
		}
		if (strchr("alinsx", c) && eat(&r->c, 'n'))
			neg = 1;
		while (peek(&r->c) && peek(&r->c) != '_') {
			int x = peek(&r->c);

			r->c.p++;
			if (isdig(x))
				x -= '0';
			else if (x >= 'a' && x <= 'f')
				x -= 'a' - 10;
			else
				r->c.fail = 1;
			if (v >> 60)
				r->c.fail = 1;
			v = v * 16 + (uint64_t)x;
		}
		if (!eat(&r->c, '_'))
			r->c.fail = 1;
		if (c == 'b') {
			puts_(&r->c, v ? "true" : "false");
		} else {
			char num[32];
			int k = snprintf(num, sizeof num, "%s%llu", neg ? "-" : "",
			    (unsigned long long)v);

			put(&r->c, num, (size_t)k);
		}
	}
	r->depth--;
}

/* I <path> <generic-arg>* E, or the args alone after the path */
static void
rgeneric_args(struct rv0 *r)
{
	int first = 1;

	put(&r->c, "<", 1);
	while (!r->c.fail && peek(&r->c) != 'E' && peek(&r->c)) {
		if (!first)
			put(&r->c, ", ", 2);
		first = 0;
		if (eat(&r->c, 'L')) {
			if (b62(r) < 0)
				r->c.fail = 1;
			put(&r->c, "'_", 2);
		} else if (eat(&r->c, 'K')) {
			rconst(r, 0);
		} else {
			rtype(r);
		}
	}
	if (!eat(&r->c, 'E'))
		r->c.fail = 1;
	put(&r->c, ">", 1);
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
	c = peek(&r->c);
	r->c.p++;
	switch (c) {
	case 'C':
		rident(r, &s, &n, &dis);
		put(&r->c, s, n);
		break;
	case 'N': {
		int ns = peek(&r->c);

		r->c.p++;
		if (!isup(ns) && !islow(ns)) {
			r->c.fail = 1;
			break;
		}
		rpath(r, intype);
		rident(r, &s, &n, &dis);
		if (isup(ns)) {
			/* closures and shims: {closure#0}, {closure:name#0} */
			char num[32];
			int k = snprintf(num, sizeof num, "#%lld}", (long long)dis);

			put(&r->c, "::{", 3);
			if (ns == 'C')
				puts_(&r->c, "closure");
			else if (ns == 'S')
				puts_(&r->c, "shim");
			else {
				char nc = (char)ns;

				put(&r->c, &nc, 1);
			}
			if (n) {
				put(&r->c, ":", 1);
				put(&r->c, s, n);
			}
			put(&r->c, num, (size_t)k);
		} else if (n) {
			put(&r->c, "::", 2);
			put(&r->c, s, n);
		}
		break;
	}
	case 'M':	/* <impl-path> <type>: <type> */
		if (eat(&r->c, 's') && b62(r) < 0)
			r->c.fail = 1;
		r->c.skip++;
		rpath(r, 0);
		r->c.skip--;
		put(&r->c, "<", 1);
		rtype(r);
		put(&r->c, ">", 1);
		break;
	case 'X':	/* <impl-path> <type> <path>: <type as path> */
		if (eat(&r->c, 's') && b62(r) < 0)
			r->c.fail = 1;
		r->c.skip++;
		rpath(r, 0);
		r->c.skip--;
		/* fall through */
	case 'Y':
		put(&r->c, "<", 1);
		rtype(r);
		puts_(&r->c, " as ");
		rpath(r, 1);
		put(&r->c, ">", 1);
		break;
	case 'I':
		rpath(r, intype);
		if (!intype)
			put(&r->c, "::", 2);
		rgeneric_args(r);
		break;
	case 'B':
		rbackref(r, rpath_arg, intype);
		break;
	default:
		r->c.fail = 1;
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
	int c = peek(&r->c);
	const char *b;

	if (!r_enter(r))
		return;
	if (c && islow(c) && (b = strchr(basic, c)) != NULL) {
		r->c.p++;
		puts_(&r->c, basicname[b - basic]);
		r->depth--;
		return;
	}
	r->c.p++;
	switch (c) {
	case 'R': case 'Q':
		put(&r->c, "&", 1);
		if (eat(&r->c, 'L')) {
			int64_t l = b62(r);

			if (l < 0)
				r->c.fail = 1;
			else if (l > 0)	/* named lifetimes: not read */
				r->c.fail = 1;
		}
		if (c == 'Q')
			puts_(&r->c, "mut ");
		rtype(r);
		break;
	case 'P':
		puts_(&r->c, "*const ");
		rtype(r);
		break;
	case 'O':
		puts_(&r->c, "*mut ");
		rtype(r);
		break;
	case 'A':
		put(&r->c, "[", 1);
		rtype(r);
		puts_(&r->c, "; ");
		rconst(r, 0);
		put(&r->c, "]", 1);
		break;
	case 'S':
		put(&r->c, "[", 1);
		rtype(r);
		put(&r->c, "]", 1);
		break;
	case 'T': {
		int k = 0;

		put(&r->c, "(", 1);
		while (!r->c.fail && peek(&r->c) && peek(&r->c) != 'E') {
			if (k++)
				put(&r->c, ", ", 2);
			rtype(r);
		}
		if (!eat(&r->c, 'E'))
			r->c.fail = 1;
		if (k == 1)
			put(&r->c, ",", 1);
		put(&r->c, ")", 1);
		break;
	}
	case 'B':
		rbackref(r, rtype_arg, 0);
		break;
	case 'C': case 'N': case 'M': case 'X': case 'Y': case 'I':
		r->c.p--;
		rpath(r, 1);
		break;
	case 'D': {	/* dyn A + B, without associated type bindings */
		int k = 0;

		if (eat(&r->c, 'G') && b62(r) < 0)
			r->c.fail = 1;
		puts_(&r->c, "dyn ");
		while (!r->c.fail && peek(&r->c) && peek(&r->c) != 'E') {
			if (k++)
				puts_(&r->c, " + ");
			rpath(r, 1);
			if (peek(&r->c) == 'p')
				r->c.fail = 1;
		}
		if (!eat(&r->c, 'E') || !eat(&r->c, 'L') || b62(r) != 0)
			r->c.fail = 1;	/* a named lifetime is not read */
		break;
	}
	default:	/* fn pointers and the rest: not read */
		r->c.fail = 1;
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
	r.c.p = r.s;
	r.c.e = e;
	if (isdig(peek(&r.c)))	/* an encoding version: only 0 (none) is known */
		return NULL;
	r.c.out = xmalloc(DEMANGLE_MAX + 1);
	rpath(&r, 0);
	/* the instantiating crate, if any, is not shown */
	if (!r.c.fail && r.c.p < r.c.e) {
		r.c.skip++;
		rpath(&r, 0);
		r.c.skip--;
	}
	if (r.c.fail || r.c.p != r.c.e || r.c.len == 0) {
		free(r.c.out);
		return NULL;
	}
	r.c.out[r.c.len] = '\0';
	return r.c.out;
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
