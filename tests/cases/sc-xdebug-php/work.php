<?php
function fib($n) { return $n < 2 ? $n : fib($n - 1) + fib($n - 2); }
function words($s) { return array_map('strtoupper', str_split($s, 3)); }
class Sorter {
    public function run(array $a) { usort($a, fn($x, $y) => $x <=> $y); return $a; }
}
$s = new Sorter();
for ($i = 0; $i < 3; $i++) {
    fib(6);
    words("flametools-xdebug-" . $i);
    $s->run([5, 3, 9, 1, $i]);
    usleep(2000);
}
