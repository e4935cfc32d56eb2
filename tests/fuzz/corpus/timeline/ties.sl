# spanlayout v1
# time-origin-ns: 0
# rows: 3
1	0	0	100	-	0	p
3	1	10	20	-	2	long
2	1	10	5	-	1	short
4	1	50	0	-	2	z1
5	1	50	0	-	1	z2
