# spanlayout v1
# time-origin-ns: 0
# rows: 2
1	0	0	50	-	0	p
2	1	10	70	-	1	c
