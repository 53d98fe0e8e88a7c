# Sequence expressions.
echo {1..5}
echo {5..1}
echo {0..20..5}
echo {a..e}
echo {01..10}
echo {10..1..3}
echo v{1..3}.{0..1}
