# spanlayout v1
# time-origin-ns: 0
# rows: 7
1	0	0	100	-	0	p
2	1	10	40	-	5	c1
3	2	15	30	-	6	d
4	1	30	40	-	1	c2
5	4	35	25	-	2	e
6	5	36	10	-	3	f
