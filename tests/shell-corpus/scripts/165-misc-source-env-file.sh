# Load a dotenv file with set -a.
set -a
source .env.example
set +a
echo "$APP_PORT $LOG_LEVEL"
bash -c 'echo "child sees $FEATURE_FLAGS"'
