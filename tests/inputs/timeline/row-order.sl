# spanlayout v1
# rows: 2
1	0	0	100	t	0	root
5	1	60	20	t	1	late
2	1	10	20	t	1	early
4	1	40	10	t	1	mid
3	1	40	5	u	1	same start, later id
6	0	200	10	t	0	second
