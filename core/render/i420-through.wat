;; I420 through RGB and back, as converting a frame to RGBA (i420-to-rgba.wat) and packing it (rgba-to-i420.wat)
;; leaves it — the very bytes — in one pass: each pixel's R, G and B are computed as the unpack computes them
;; (rounded, clipped to 0..255: what 4:2:0 chroma and camera noise put outside the gamut goes), then Y, U and V
;; from them as the pack computes them, with no RGBA written or read between the two (the interleaving and
;; de-interleaving shuffles and the RGBA rows' stores and loads: 30–37 % of the two kernels' time). A covering clip's decoded frame goes this way to the encoder
;; (cpu-rgba.ts `throughRgba`). 16 pixels of two rows a step, in 128-bit SIMD; `npm run build:wasm` assembles it;
;; the fixed point of each half is explained in its own kernel's file, whose arithmetic this repeats exactly
;; (test/render/cpu-rgba.test.ts compares the bytes). With $k not 0 it also fades: each R, G and B at an opacity over
;; a constant background between the unpack and the pack — the bytes of converting the frame to RGBA, warping it at
;; one texel a pixel with that opacity (rgba-warp.wat: its samples then fall on texel centres, its weights 0) and
;; packing it: a clip fading in or out over the background (cpu-rgba.ts `fadeThroughRgba`). At $k: the opacity (u16
;; ×8, 0..256), then for R, G and B the background × (256 − opacity) + 128 (u16 ×8 each).
(module
  (memory (import "env" "memory") 1)

  ;; The planes at $sy, $su and $sv into the planes at $dy, $du and $dv (not the same: the last step of a width
  ;; that is not a multiple of 16 reads a few pixels again), faded by the constants at $k unless it is 0. Width even
  ;; and at least 16, height even.
  (func (export "through") (param $sy i32) (param $su i32) (param $sv i32) (param $dy i32) (param $du i32) (param $dv i32) (param $w i32) (param $h i32) (param $k i32)
    (local $o v128) (local $kr v128) (local $kg v128) (local $kb v128)
    (local $y i32) (local $x i32) (local $c i32) (local $cw i32)
    (local $u v128) (local $v v128) (local $luma v128) (local $yl v128) (local $yh v128)
    (local $rl v128) (local $rh v128) (local $gl v128) (local $gh v128) (local $bl v128) (local $bh v128)
    (local $r0 v128) (local $g0 v128) (local $b0 v128) (local $r1 v128) (local $g1 v128) (local $b1 v128)
    (local $sr v128) (local $sg v128) (local $sb v128)
    (if (local.get $k)
      (then
        (local.set $o (v128.load (local.get $k)))
        (local.set $kr (v128.load offset=16 (local.get $k)))
        (local.set $kg (v128.load offset=32 (local.get $k)))
        (local.set $kb (v128.load offset=48 (local.get $k)))))
    (local.set $cw (i32.shr_u (local.get $w) (i32.const 1)))
    (loop $rows
      (local.set $x (i32.const 0))
      (loop $cols
        ;; The block row's 8 U and 8 V, each repeated for the two columns it covers; their shares of R, G and B.
        (local.set $c (i32.add (i32.mul (i32.shr_u (local.get $y) (i32.const 1)) (local.get $cw)) (i32.shr_u (local.get $x) (i32.const 1))))
        (local.set $u (v128.load64_zero (i32.add (local.get $su) (local.get $c))))
        (local.set $v (v128.load64_zero (i32.add (local.get $sv) (local.get $c))))
        (local.set $u (i8x16.shuffle 0 0 1 1 2 2 3 3 4 4 5 5 6 6 7 7 (local.get $u) (local.get $u)))
        (local.set $v (i8x16.shuffle 0 0 1 1 2 2 3 3 4 4 5 5 6 6 7 7 (local.get $v) (local.get $v)))
        (local.set $rl (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.sub (i16x8.extend_low_i8x16_u (local.get $v)) (v128.const i16x8 128 128 128 128 128 128 128 128)) (i32.const 6)) (v128.const i16x8 29372 29372 29372 29372 29372 29372 29372 29372)))
        (local.set $gl (i16x8.add (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.sub (i16x8.extend_low_i8x16_u (local.get $u)) (v128.const i16x8 128 128 128 128 128 128 128 128)) (i32.const 6)) (v128.const i16x8 3494 3494 3494 3494 3494 3494 3494 3494)) (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.sub (i16x8.extend_low_i8x16_u (local.get $v)) (v128.const i16x8 128 128 128 128 128 128 128 128)) (i32.const 6)) (v128.const i16x8 8731 8731 8731 8731 8731 8731 8731 8731))))
        (local.set $bl (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.sub (i16x8.extend_low_i8x16_u (local.get $u)) (v128.const i16x8 128 128 128 128 128 128 128 128)) (i32.const 7)) (v128.const i16x8 17305 17305 17305 17305 17305 17305 17305 17305)))
        (local.set $rh (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.sub (i16x8.extend_high_i8x16_u (local.get $v)) (v128.const i16x8 128 128 128 128 128 128 128 128)) (i32.const 6)) (v128.const i16x8 29372 29372 29372 29372 29372 29372 29372 29372)))
        (local.set $gh (i16x8.add (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.sub (i16x8.extend_high_i8x16_u (local.get $u)) (v128.const i16x8 128 128 128 128 128 128 128 128)) (i32.const 6)) (v128.const i16x8 3494 3494 3494 3494 3494 3494 3494 3494)) (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.sub (i16x8.extend_high_i8x16_u (local.get $v)) (v128.const i16x8 128 128 128 128 128 128 128 128)) (i32.const 6)) (v128.const i16x8 8731 8731 8731 8731 8731 8731 8731 8731))))
        (local.set $bh (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.sub (i16x8.extend_high_i8x16_u (local.get $u)) (v128.const i16x8 128 128 128 128 128 128 128 128)) (i32.const 7)) (v128.const i16x8 17305 17305 17305 17305 17305 17305 17305 17305)))
        ;; Both rows' 16 pixels as R, G and B planes of bytes, as the unpack rounds and clips them.
        (local.set $luma (v128.load (i32.add (local.get $sy) (i32.add (i32.mul (i32.add (local.get $y) (i32.const 0)) (local.get $w)) (local.get $x)))))
        (local.set $yl (i16x8.add (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.sub (i16x8.extend_low_i8x16_u (local.get $luma)) (v128.const i16x8 16 16 16 16 16 16 16 16)) (i32.const 6)) (v128.const i16x8 19077 19077 19077 19077 19077 19077 19077 19077)) (v128.const i16x8 16 16 16 16 16 16 16 16)))
        (local.set $yh (i16x8.add (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.sub (i16x8.extend_high_i8x16_u (local.get $luma)) (v128.const i16x8 16 16 16 16 16 16 16 16)) (i32.const 6)) (v128.const i16x8 19077 19077 19077 19077 19077 19077 19077 19077)) (v128.const i16x8 16 16 16 16 16 16 16 16)))
        (local.set $r0 (i8x16.narrow_i16x8_u (i16x8.shr_s (i16x8.add (local.get $yl) (local.get $rl)) (i32.const 5)) (i16x8.shr_s (i16x8.add (local.get $yh) (local.get $rh)) (i32.const 5))))
        (local.set $g0 (i8x16.narrow_i16x8_u (i16x8.shr_s (i16x8.sub (local.get $yl) (local.get $gl)) (i32.const 5)) (i16x8.shr_s (i16x8.sub (local.get $yh) (local.get $gh)) (i32.const 5))))
        (local.set $b0 (i8x16.narrow_i16x8_u (i16x8.shr_s (i16x8.add (local.get $yl) (local.get $bl)) (i32.const 5)) (i16x8.shr_s (i16x8.add (local.get $yh) (local.get $bh)) (i32.const 5))))
        (local.set $luma (v128.load (i32.add (local.get $sy) (i32.add (i32.mul (i32.add (local.get $y) (i32.const 1)) (local.get $w)) (local.get $x)))))
        (local.set $yl (i16x8.add (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.sub (i16x8.extend_low_i8x16_u (local.get $luma)) (v128.const i16x8 16 16 16 16 16 16 16 16)) (i32.const 6)) (v128.const i16x8 19077 19077 19077 19077 19077 19077 19077 19077)) (v128.const i16x8 16 16 16 16 16 16 16 16)))
        (local.set $yh (i16x8.add (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.sub (i16x8.extend_high_i8x16_u (local.get $luma)) (v128.const i16x8 16 16 16 16 16 16 16 16)) (i32.const 6)) (v128.const i16x8 19077 19077 19077 19077 19077 19077 19077 19077)) (v128.const i16x8 16 16 16 16 16 16 16 16)))
        (local.set $r1 (i8x16.narrow_i16x8_u (i16x8.shr_s (i16x8.add (local.get $yl) (local.get $rl)) (i32.const 5)) (i16x8.shr_s (i16x8.add (local.get $yh) (local.get $rh)) (i32.const 5))))
        (local.set $g1 (i8x16.narrow_i16x8_u (i16x8.shr_s (i16x8.sub (local.get $yl) (local.get $gl)) (i32.const 5)) (i16x8.shr_s (i16x8.sub (local.get $yh) (local.get $gh)) (i32.const 5))))
        (local.set $b1 (i8x16.narrow_i16x8_u (i16x8.shr_s (i16x8.add (local.get $yl) (local.get $bl)) (i32.const 5)) (i16x8.shr_s (i16x8.add (local.get $yh) (local.get $bh)) (i32.const 5))))
        ;; `fade` ($k not 0): each R, G and B at the opacity over the background, as the warp blends a channel —
        ;; (c·o + bg·(256 − o) + 128) >> 8 — between the unpack and the pack. A branch a step, the same way every step.
        (if (local.get $k)
          (then
          (local.set $r0 (i8x16.narrow_i16x8_u
            (i16x8.shr_u (i16x8.add (i16x8.mul (i16x8.extend_low_i8x16_u (local.get $r0)) (local.get $o)) (local.get $kr)) (i32.const 8))
            (i16x8.shr_u (i16x8.add (i16x8.mul (i16x8.extend_high_i8x16_u (local.get $r0)) (local.get $o)) (local.get $kr)) (i32.const 8))))
          (local.set $g0 (i8x16.narrow_i16x8_u
            (i16x8.shr_u (i16x8.add (i16x8.mul (i16x8.extend_low_i8x16_u (local.get $g0)) (local.get $o)) (local.get $kg)) (i32.const 8))
            (i16x8.shr_u (i16x8.add (i16x8.mul (i16x8.extend_high_i8x16_u (local.get $g0)) (local.get $o)) (local.get $kg)) (i32.const 8))))
          (local.set $b0 (i8x16.narrow_i16x8_u
            (i16x8.shr_u (i16x8.add (i16x8.mul (i16x8.extend_low_i8x16_u (local.get $b0)) (local.get $o)) (local.get $kb)) (i32.const 8))
            (i16x8.shr_u (i16x8.add (i16x8.mul (i16x8.extend_high_i8x16_u (local.get $b0)) (local.get $o)) (local.get $kb)) (i32.const 8))))
          (local.set $r1 (i8x16.narrow_i16x8_u
            (i16x8.shr_u (i16x8.add (i16x8.mul (i16x8.extend_low_i8x16_u (local.get $r1)) (local.get $o)) (local.get $kr)) (i32.const 8))
            (i16x8.shr_u (i16x8.add (i16x8.mul (i16x8.extend_high_i8x16_u (local.get $r1)) (local.get $o)) (local.get $kr)) (i32.const 8))))
          (local.set $g1 (i8x16.narrow_i16x8_u
            (i16x8.shr_u (i16x8.add (i16x8.mul (i16x8.extend_low_i8x16_u (local.get $g1)) (local.get $o)) (local.get $kg)) (i32.const 8))
            (i16x8.shr_u (i16x8.add (i16x8.mul (i16x8.extend_high_i8x16_u (local.get $g1)) (local.get $o)) (local.get $kg)) (i32.const 8))))
          (local.set $b1 (i8x16.narrow_i16x8_u
            (i16x8.shr_u (i16x8.add (i16x8.mul (i16x8.extend_low_i8x16_u (local.get $b1)) (local.get $o)) (local.get $kb)) (i32.const 8))
            (i16x8.shr_u (i16x8.add (i16x8.mul (i16x8.extend_high_i8x16_u (local.get $b1)) (local.get $o)) (local.get $kb)) (i32.const 8))))))
        ;; Y of both rows, as the pack computes it.
        (v128.store (i32.add (local.get $dy) (i32.add (i32.mul (i32.add (local.get $y) (i32.const 0)) (local.get $w)) (local.get $x)))
          (i8x16.narrow_i16x8_u
            (i16x8.shr_u
              (i16x8.add
                (i16x8.add
                  (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.extend_low_i8x16_u (local.get $r0)) (i32.const 7)) (v128.const i16x8 5983 5983 5983 5983 5983 5983 5983 5983))
                  (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.extend_low_i8x16_u (local.get $g0)) (i32.const 7)) (v128.const i16x8 20127 20127 20127 20127 20127 20127 20127 20127)))
                (i16x8.add
                  (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.extend_low_i8x16_u (local.get $b0)) (i32.const 7)) (v128.const i16x8 2032 2032 2032 2032 2032 2032 2032 2032))
                  (v128.const i16x8 2112 2112 2112 2112 2112 2112 2112 2112)))
              (i32.const 7))
            (i16x8.shr_u
              (i16x8.add
                (i16x8.add
                  (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.extend_high_i8x16_u (local.get $r0)) (i32.const 7)) (v128.const i16x8 5983 5983 5983 5983 5983 5983 5983 5983))
                  (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.extend_high_i8x16_u (local.get $g0)) (i32.const 7)) (v128.const i16x8 20127 20127 20127 20127 20127 20127 20127 20127)))
                (i16x8.add
                  (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.extend_high_i8x16_u (local.get $b0)) (i32.const 7)) (v128.const i16x8 2032 2032 2032 2032 2032 2032 2032 2032))
                  (v128.const i16x8 2112 2112 2112 2112 2112 2112 2112 2112)))
              (i32.const 7))))
        (v128.store (i32.add (local.get $dy) (i32.add (i32.mul (i32.add (local.get $y) (i32.const 1)) (local.get $w)) (local.get $x)))
          (i8x16.narrow_i16x8_u
            (i16x8.shr_u
              (i16x8.add
                (i16x8.add
                  (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.extend_low_i8x16_u (local.get $r1)) (i32.const 7)) (v128.const i16x8 5983 5983 5983 5983 5983 5983 5983 5983))
                  (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.extend_low_i8x16_u (local.get $g1)) (i32.const 7)) (v128.const i16x8 20127 20127 20127 20127 20127 20127 20127 20127)))
                (i16x8.add
                  (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.extend_low_i8x16_u (local.get $b1)) (i32.const 7)) (v128.const i16x8 2032 2032 2032 2032 2032 2032 2032 2032))
                  (v128.const i16x8 2112 2112 2112 2112 2112 2112 2112 2112)))
              (i32.const 7))
            (i16x8.shr_u
              (i16x8.add
                (i16x8.add
                  (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.extend_high_i8x16_u (local.get $r1)) (i32.const 7)) (v128.const i16x8 5983 5983 5983 5983 5983 5983 5983 5983))
                  (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.extend_high_i8x16_u (local.get $g1)) (i32.const 7)) (v128.const i16x8 20127 20127 20127 20127 20127 20127 20127 20127)))
                (i16x8.add
                  (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.extend_high_i8x16_u (local.get $b1)) (i32.const 7)) (v128.const i16x8 2032 2032 2032 2032 2032 2032 2032 2032))
                  (v128.const i16x8 2112 2112 2112 2112 2112 2112 2112 2112)))
              (i32.const 7))))
        ;; Each 2×2 block's channel sums, then U and V.
        (local.set $sr (i16x8.add (i16x8.extadd_pairwise_i8x16_u (local.get $r0)) (i16x8.extadd_pairwise_i8x16_u (local.get $r1))))
        (local.set $sg (i16x8.add (i16x8.extadd_pairwise_i8x16_u (local.get $g0)) (i16x8.extadd_pairwise_i8x16_u (local.get $g1))))
        (local.set $sb (i16x8.add (i16x8.extadd_pairwise_i8x16_u (local.get $b0)) (i16x8.extadd_pairwise_i8x16_u (local.get $b1))))
        (v128.store64_lane 0 (i32.add (local.get $du) (local.get $c))
          (i8x16.narrow_i16x8_u
            (i16x8.shr_u
              (i16x8.add
                (i16x8.add
                  (i16x8.q15mulr_sat_s (i16x8.shl (local.get $sr) (i32.const 5)) (v128.const i16x8 -3298 -3298 -3298 -3298 -3298 -3298 -3298 -3298))
                  (i16x8.q15mulr_sat_s (i16x8.shl (local.get $sg) (i32.const 5)) (v128.const i16x8 -11094 -11094 -11094 -11094 -11094 -11094 -11094 -11094)))
                (i16x8.add
                  (i16x8.q15mulr_sat_s (i16x8.shl (local.get $sb) (i32.const 5)) (v128.const i16x8 14392 14392 14392 14392 14392 14392 14392 14392))
                  (v128.const i16x8 16448 16448 16448 16448 16448 16448 16448 16448)))
              (i32.const 7))
            (v128.const i64x2 0 0)))
        (v128.store64_lane 0 (i32.add (local.get $dv) (local.get $c))
          (i8x16.narrow_i16x8_u
            (i16x8.shr_u
              (i16x8.add
                (i16x8.add
                  (i16x8.q15mulr_sat_s (i16x8.shl (local.get $sr) (i32.const 5)) (v128.const i16x8 14392 14392 14392 14392 14392 14392 14392 14392))
                  (i16x8.q15mulr_sat_s (i16x8.shl (local.get $sg) (i32.const 5)) (v128.const i16x8 -13073 -13073 -13073 -13073 -13073 -13073 -13073 -13073)))
                (i16x8.add
                  (i16x8.q15mulr_sat_s (i16x8.shl (local.get $sb) (i32.const 5)) (v128.const i16x8 -1319 -1319 -1319 -1319 -1319 -1319 -1319 -1319))
                  (v128.const i16x8 16448 16448 16448 16448 16448 16448 16448 16448)))
              (i32.const 7))
            (v128.const i64x2 0 0)))
        ;; The next 16 columns; the last step of a width that is not a multiple of 16 starts at width − 16.
        (local.set $x (i32.add (local.get $x) (i32.const 16)))
        (if (i32.lt_u (local.get $x) (local.get $w))
          (then
            (if (i32.gt_u (local.get $x) (i32.sub (local.get $w) (i32.const 16)))
              (then (local.set $x (i32.sub (local.get $w) (i32.const 16)))))
            (br $cols))))
      (local.set $y (i32.add (local.get $y) (i32.const 2)))
      (br_if $rows (i32.lt_u (local.get $y) (local.get $h))))))
