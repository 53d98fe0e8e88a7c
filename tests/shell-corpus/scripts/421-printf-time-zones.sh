# printf %(fmt)T in several time zones (the TZ database), at fixed times.
for tz in UTC America/New_York Europe/Berlin Asia/Kolkata Australia/Sydney; do
  TZ=$tz printf '%-18s %(%Y-%m-%d %H:%M %Z %z)T\n' "$tz" 1700000000
done
TZ=Europe/London printf '%(%H:%M %Z)T %(%H:%M %Z)T\n' 1690000000 1700000000
