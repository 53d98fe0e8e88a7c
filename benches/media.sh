#!/usr/bin/env bash
# The sandbox's ffmpeg, ffprobe and ImageMagick against Debian's native ones
# (the same FFmpeg 5.1.9 and ImageMagick 6.9.11), side by side: each command
# N times on each side, medians printed as a table.
#   benches/media.sh target/release/computer [N]
# The inputs are made by the native ffmpeg: a 10 s 720p H.264 + AAC video,
# 60 s of stereo WAV, a 1080p H.264 clip, a 12-megapixel JPEG. The sandbox
# side is one `computer exec` per command (the CLI's start, opening the
# workspace and the run included); the native side one process,
# single-threaded as ours is (ffmpeg's `-threads 1 -filter_threads 1`,
# ImageMagick's MAGICK_THREAD_LIMIT=1).
set -euo pipefail
BIN="$(realpath "${1:?usage: benches/media.sh path/to/computer [N]}")"
N="${2:-5}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
mk() { ffmpeg -v error -y "$@"; }
mk -f lavfi -i testsrc2=duration=10:size=1280x720:rate=30 -f lavfi -i sine=duration=10 \
  -c:v libx264 -pix_fmt yuv420p -c:a aac -shortest video10.mp4
mk -f lavfi -i sine=frequency=440:duration=60 -f lavfi -i sine=frequency=660:duration=60 \
  -filter_complex amerge=inputs=2 music60.wav
mk -f lavfi -i testsrc2=duration=2:size=1920x1080:rate=30 -c:v libx264 -pix_fmt yuv420p hd.mp4
mk -f lavfi -i mandelbrot=size=4000x3000 -frames:v 1 -q:v 2 photo12mp.jpg

export COMPUTER_WORKSPACE="$WORK/ws.db"
"$BIN" init >/dev/null
mkdir in && mv ./*.mp4 ./*.wav ./*.jpg in/
"$BIN" import in /m >/dev/null
"$BIN" exec 'ffprobe -v error /m/hd.mp4' # compile cache warm

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ms() { # ms COMMAND...: wall milliseconds of one run
  local s e
  s=$(date +%s%N)
  "$@" >/dev/null 2>&1
  e=$(date +%s%N)
  echo $(((e - s) / 1000000))
}
row() { # row LABEL SANDBOX-COMMAND NATIVE-COMMAND
  local label=$1 ours=$2 theirs=$3 n=() c=() i
  for ((i = 0; i < N; i++)); do
    n+=("$(ms bash -c "cd '$WORK/in' && $theirs")")
    c+=("$(ms "$BIN" exec "cd /m && $ours")")
  done
  local nm cm
  nm=$(printf '%s\n' "${n[@]}" | median)
  cm=$(printf '%s\n' "${c[@]}" | median)
  printf '| %s | %s ms | %s ms | %sx |\n' "$label" "$cm" "$nm" \
    "$(awk -v a="$cm" -v b="$nm" 'BEGIN {printf "%.1f", a / (b > 0 ? b : 1)}')"
}

echo "| work | computer | native (1 thread) | ratio |"
echo "|---|---:|---:|---:|"
probe='ffprobe -v error -show_format -show_streams -of json video10.mp4'
row '`ffprobe` of a 10 s 720p video (JSON)' "$probe" "$probe"
mp3='ffmpeg -v error -y -i music60.wav -b:a 192k out.mp3'
row '60 s of WAV to MP3 (LAME)' "$mp3" "$mp3 -threads 1"
thumb='ffmpeg -v error -y -ss 1 -i hd.mp4 -frames:v 1 -vf scale=320:-1 thumb.jpg'
row 'thumbnail of a 1080p frame' "$thumb" "${thumb/ffmpeg/ffmpeg -threads 1 -filter_threads 1}"
resize='ffmpeg -v error -y -i photo12mp.jpg -vf scale=iw/2:-1 half.jpg'
row 'a 12-megapixel JPEG halved (`scale`)' "$resize" "${resize/ffmpeg/ffmpeg -threads 1 -filter_threads 1}"
x264='ffmpeg -v error -y -i video10.mp4 -t 3 -c:v libx264 -preset veryfast -an re.mp4'
row '3 s of 720p re-encoded (x264 veryfast)' "$x264" "${x264/-an/-an -threads 1}"
# ImageMagick: the native one with one thread (its OpenMP would use both cores).
im='convert photo12mp.jpg -resize 50% half-im.jpg'
row 'ImageMagick `convert -resize 50%` of a 12-megapixel JPEG' "$im" "MAGICK_THREAD_LIMIT=1 /usr/bin/$im"
idf='identify photo12mp.jpg'
row 'ImageMagick `identify` of it' "$idf" "/usr/bin/$idf"
