;; I420 (Y plane, then U, then V) in BT.709 TV range to RGBA (4 bytes a pixel, top row first, alpha 255), full
;; range: each pixel's Y with its 2×2 block's U and V (nearest, as swscale's unscaled yuv420p → rgba does), rounded
;; to nearest (within 0.6 of the exact value). The inverse of rgba-to-i420.wat; 16 pixels of two rows a step, in
;; 128-bit SIMD. `npm run build:wasm` assembles it into i420-to-rgba.wasm.ts (test/render/cpu-yuv.test.ts checks
;; they agree). The arithmetic is written out where it is used (V8 in Node 20 does not inline a wasm call that
;; passes v128 values).
;;
;; Fixed point, 5 fractional bits: (Y − 16) shifted left 6 times 255/219 ÷ 2 in Q15 (q15mulr) is (Y − 16)·255/219
;; in 1/32 of a level; V − 128 shifted left 6 times 1.792741 ÷ 2 is its share of R; U − 128 shifted left 7 times
;; 2.112420 ÷ 4 its share of B; G takes 0.213249·(U − 128) and 0.532909·(V − 128) off. Sums stay within ±17,500;
;; adding 16 and shifting right 5 (signed) rounds, and narrowing saturates to 0..255.
(module
  (memory (import "env" "memory") 1)

  ;; Converts the planes at $sy, $su and $sv (rows of width and width ÷ 2 bytes) into a width×height RGBA frame at
  ;; $dst. Width even and at least 16, height even. Two rows of a whole frame's planes can be converted at a time.
  (func (export "unpack") (param $sy i32) (param $su i32) (param $sv i32) (param $dst i32) (param $w i32) (param $h i32)
    (local $y i32) (local $x i32) (local $c i32) (local $cw i32) (local $row i32) (local $o i32) (local $p i32)
    (local $u v128) (local $v v128) (local $luma v128)
    (local $rl v128) (local $rh v128) (local $gl v128) (local $gh v128) (local $bl v128) (local $bh v128)
    (local $yl v128) (local $yh v128) (local $r v128) (local $g v128) (local $b v128) (local $rg v128) (local $ba v128)
    (local.set $cw (i32.shr_u (local.get $w) (i32.const 1)))
    (loop $rows
      (local.set $x (i32.const 0))
      (loop $cols
        ;; The block row's 8 U and 8 V, each repeated for the two columns it covers, minus 128.
        (local.set $c (i32.add (i32.mul (i32.shr_u (local.get $y) (i32.const 1)) (local.get $cw)) (i32.shr_u (local.get $x) (i32.const 1))))
        (local.set $u (v128.load64_zero (i32.add (local.get $su) (local.get $c))))
        (local.set $v (v128.load64_zero (i32.add (local.get $sv) (local.get $c))))
        (local.set $u (i8x16.shuffle 0 0 1 1 2 2 3 3 4 4 5 5 6 6 7 7 (local.get $u) (local.get $u)))
        (local.set $v (i8x16.shuffle 0 0 1 1 2 2 3 3 4 4 5 5 6 6 7 7 (local.get $v) (local.get $v)))
        ;; Chroma's shares of R, G and B (1/32 level), shared by both rows.
        (local.set $rl (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.sub (i16x8.extend_low_i8x16_u (local.get $v)) (v128.const i16x8 128 128 128 128 128 128 128 128)) (i32.const 6)) (v128.const i16x8 29372 29372 29372 29372 29372 29372 29372 29372)))
        (local.set $gl (i16x8.add (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.sub (i16x8.extend_low_i8x16_u (local.get $u)) (v128.const i16x8 128 128 128 128 128 128 128 128)) (i32.const 6)) (v128.const i16x8 3494 3494 3494 3494 3494 3494 3494 3494)) (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.sub (i16x8.extend_low_i8x16_u (local.get $v)) (v128.const i16x8 128 128 128 128 128 128 128 128)) (i32.const 6)) (v128.const i16x8 8731 8731 8731 8731 8731 8731 8731 8731))))
        (local.set $bl (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.sub (i16x8.extend_low_i8x16_u (local.get $u)) (v128.const i16x8 128 128 128 128 128 128 128 128)) (i32.const 7)) (v128.const i16x8 17305 17305 17305 17305 17305 17305 17305 17305)))
        (local.set $rh (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.sub (i16x8.extend_high_i8x16_u (local.get $v)) (v128.const i16x8 128 128 128 128 128 128 128 128)) (i32.const 6)) (v128.const i16x8 29372 29372 29372 29372 29372 29372 29372 29372)))
        (local.set $gh (i16x8.add (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.sub (i16x8.extend_high_i8x16_u (local.get $u)) (v128.const i16x8 128 128 128 128 128 128 128 128)) (i32.const 6)) (v128.const i16x8 3494 3494 3494 3494 3494 3494 3494 3494)) (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.sub (i16x8.extend_high_i8x16_u (local.get $v)) (v128.const i16x8 128 128 128 128 128 128 128 128)) (i32.const 6)) (v128.const i16x8 8731 8731 8731 8731 8731 8731 8731 8731))))
        (local.set $bh (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.sub (i16x8.extend_high_i8x16_u (local.get $u)) (v128.const i16x8 128 128 128 128 128 128 128 128)) (i32.const 7)) (v128.const i16x8 17305 17305 17305 17305 17305 17305 17305 17305)))
        (local.set $p (i32.const 0))
        (loop $pair
          (local.set $row (i32.add (local.get $y) (local.get $p)))
          (local.set $luma (v128.load (i32.add (local.get $sy) (i32.add (i32.mul (local.get $row) (local.get $w)) (local.get $x)))))
          (local.set $yl (i16x8.add (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.sub (i16x8.extend_low_i8x16_u (local.get $luma)) (v128.const i16x8 16 16 16 16 16 16 16 16)) (i32.const 6)) (v128.const i16x8 19077 19077 19077 19077 19077 19077 19077 19077)) (v128.const i16x8 16 16 16 16 16 16 16 16)))
          (local.set $yh (i16x8.add (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.sub (i16x8.extend_high_i8x16_u (local.get $luma)) (v128.const i16x8 16 16 16 16 16 16 16 16)) (i32.const 6)) (v128.const i16x8 19077 19077 19077 19077 19077 19077 19077 19077)) (v128.const i16x8 16 16 16 16 16 16 16 16)))
          (local.set $r (i8x16.narrow_i16x8_u (i16x8.shr_s (i16x8.add (local.get $yl) (local.get $rl)) (i32.const 5)) (i16x8.shr_s (i16x8.add (local.get $yh) (local.get $rh)) (i32.const 5))))
          (local.set $g (i8x16.narrow_i16x8_u (i16x8.shr_s (i16x8.sub (local.get $yl) (local.get $gl)) (i32.const 5)) (i16x8.shr_s (i16x8.sub (local.get $yh) (local.get $gh)) (i32.const 5))))
          (local.set $b (i8x16.narrow_i16x8_u (i16x8.shr_s (i16x8.add (local.get $yl) (local.get $bl)) (i32.const 5)) (i16x8.shr_s (i16x8.add (local.get $yh) (local.get $bh)) (i32.const 5))))
          ;; Interleaved as RGBA, four pixels a store.
          (local.set $o (i32.add (local.get $dst) (i32.shl (i32.add (i32.mul (local.get $row) (local.get $w)) (local.get $x)) (i32.const 2))))
          (local.set $rg (i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23 (local.get $r) (local.get $g)))
          (local.set $ba (i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23 (local.get $b) (v128.const i8x16 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1)))
          (v128.store offset=0 (local.get $o) (i8x16.shuffle 0 1 16 17 2 3 18 19 4 5 20 21 6 7 22 23 (local.get $rg) (local.get $ba)))
          (v128.store offset=16 (local.get $o) (i8x16.shuffle 8 9 24 25 10 11 26 27 12 13 28 29 14 15 30 31 (local.get $rg) (local.get $ba)))
          (local.set $rg (i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31 (local.get $r) (local.get $g)))
          (local.set $ba (i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31 (local.get $b) (v128.const i8x16 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1)))
          (v128.store offset=32 (local.get $o) (i8x16.shuffle 0 1 16 17 2 3 18 19 4 5 20 21 6 7 22 23 (local.get $rg) (local.get $ba)))
          (v128.store offset=48 (local.get $o) (i8x16.shuffle 8 9 24 25 10 11 26 27 12 13 28 29 14 15 30 31 (local.get $rg) (local.get $ba)))
          (local.set $p (i32.add (local.get $p) (i32.const 1)))
          (br_if $pair (i32.lt_u (local.get $p) (i32.const 2))))
        ;; The next 16 columns; the last step of a width that is not a multiple of 16 starts at width − 16
        ;; (even, so on a block boundary) and writes a few pixels again, the same pixels.
        (local.set $x (i32.add (local.get $x) (i32.const 16)))
        (if (i32.lt_u (local.get $x) (local.get $w))
          (then
            (if (i32.gt_u (local.get $x) (i32.sub (local.get $w) (i32.const 16)))
              (then (local.set $x (i32.sub (local.get $w) (i32.const 16)))))
            (br $cols))))
      (local.set $y (i32.add (local.get $y) (i32.const 2)))
      (br_if $rows (i32.lt_u (local.get $y) (local.get $h))))))
