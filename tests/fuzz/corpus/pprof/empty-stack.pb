
0b2main2leaf