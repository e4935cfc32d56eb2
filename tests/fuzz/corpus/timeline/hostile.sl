# spanlayout v1
# command: ./server --port 80
# time-origin-ns: 1000
# rows: 7
1	0	0	1000	tid:1	0	main
2	1	100	400	tid:1	2	parse
3	2	150	100	tid:1	3	lex
8	1	150	200	tid:1	1	async
4	1	600	300	tid:1	1	exec
7	4	650	50	tid:1	2	lex
5	0	200	500	tid:2	5	worker
6	5	300	100	tid:2	6	</script><script>alert(1)
