#!/usr/bin/env bash
# Makes the small media files the examples gallery (examples/*.json) uses, with ffmpeg alone: they are committed, so
# a fresh clone renders every example offline; this script says how they were made and remakes them if needed.
# Kept tiny on purpose (320×180 and below, mono audio): the whole folder stays a few hundred KB.
#   bash scripts/examples-media.sh
set -euo pipefail
cd "$(dirname "$0")/../examples/media"
font=../../node_modules/@expo-google-fonts/anton/400Regular/Anton_400Regular.ttf
enc=(-c:v libx264 -preset veryslow -crf 30 -g 50 -pix_fmt yuv420p -movflags +faststart)
# A plucked C-major arpeggio, two notes a second: a sound you can tell apart from silence and from a tone.
pluck="0.25*sin(2*PI*(262*pow(2,floor(mod(t*2,4))*4/12))*t)*exp(-4*mod(t,0.5))"

# counter.mp4: 8 s whose big number is the source's own second (so trim and speed show), a box that bounces, sound.
ffmpeg -v error -y -f lavfi \
  -i "gradients=s=320x180:c0=0x0b3d91:c1=0x1fa2ff:c2=0xff7e5f:c3=0x0a2342:nb_colors=4:speed=0.02:r=25:d=8,drawbox=x='20+240*abs(sin(t*0.8))':y=120:w=40:h=40:c=white@0.85:t=fill,drawtext=fontfile=$font:text='%{eif\:t\:d}':fontsize=64:fontcolor=white:x=(w-tw)/2:y=20:shadowcolor=black@0.5:shadowx=2:shadowy=2" \
  -f lavfi -i "aevalsrc='$pluck':d=8:s=44100" "${enc[@]}" -c:a aac -b:a 32k -ac 1 -shortest counter.mp4

# tide.mp4: 6 s of green and gold with a bar sweeping down, no sound (a second, different-looking video).
ffmpeg -v error -y -f lavfi \
  -i "gradients=s=320x180:c0=0x0f5132:c1=0x2ec4b6:c2=0xffd166:c3=0x073b4c:nb_colors=4:speed=0.03:r=25:d=6,drawbox=x=0:y='mod(t*40,180)':w=320:h=14:c=white@0.6:t=fill,drawtext=fontfile=$font:text='%{eif\:t\:d}':fontsize=28:fontcolor=white:x=w-tw-10:y=8" \
  "${enc[@]}" -an tide.mp4

# wipe-luma.mp4: a soft-edged grey wipe, black to white from left to right over 1.5 s (a luma matte transition).
ffmpeg -v error -y -f lavfi -i "color=black:s=160x90:r=25:d=1.5,format=gray,geq=lum='clip((T/1.5*1.3-X/W)*4*255,0,255)'" \
  -c:v libx264 -preset veryslow -crf 28 -pix_fmt yuv420p wipe-luma.mp4

# circle-luma.png: a white disc with a soft edge on black (a luma matte mask).
ffmpeg -v error -y -f lavfi -i "color=black:s=320x180:d=1,format=gray,geq=lum='clip((70-hypot(X-160,Y-90))*16,0,255)'" -frames:v 1 circle-luma.png

# music.mp3: 10 s of the arpeggio, fading out over the last two seconds.
ffmpeg -v error -y -f lavfi -i "aevalsrc='$pluck':d=10:s=44100,afade=t=out:st=8:d=2" -c:a libmp3lame -b:a 48k -ac 1 music.mp3

ls -l
