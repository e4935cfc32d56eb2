# spanlayout v1
# time-origin-ns: 1000
# rows: 2
1	0	0	100	-	0	p
2	1	10	10	-	1	c1
3	1	30	10	-	1	c2
4	1	50	10	-	1	c3
