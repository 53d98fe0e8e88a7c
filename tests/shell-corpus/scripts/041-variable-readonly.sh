# readonly variables cannot be changed.
readonly LIMIT=10
echo "$LIMIT"
( LIMIT=20 ) 2>/dev/null || echo "cannot assign readonly"
echo "still $LIMIT"
