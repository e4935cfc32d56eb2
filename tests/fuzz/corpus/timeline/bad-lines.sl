# spanlayout v1
# rows: 2
1	0	0	100	t	0	ok
2	1	10	x	t	1	bad duration
3	1	10	5	t
4	1	20	5	t	1	fine
1	0	0	5	t	1	dup
