# spanlayout v1
# time-origin-ns: 0
# rows: 7
10	0	0	50	A	5	r1
11	10	5	10	A	6	k1
30	99	0	10	A	0	orphan
20	0	20	50	B	1	r2
21	20	25	10	B	3	k2
60	20	30	5	A	2	cross
40	40	60	5	B	0	self
# cycle-broken: 50 had parent 51
50	0	70	5	A	0	cyc-a
52	50	72	1	A	1	cyc-c
51	52	71	3	A	2	cyc-b
