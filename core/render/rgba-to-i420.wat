;; RGBA (4 bytes a pixel, top row first) to I420 (Y plane, then U, then V), BT.709 in TV range: the numbers of
;; the GPU pack shader (yuv-pack.ts) and of swscale's `out_color_matrix=bt709:out_range=tv` — Y of each pixel,
;; U and V of each 2×2 block's mean — rounded to nearest. 16 pixels of two rows a step, in 128-bit SIMD;
;; `npm run build:wasm` assembles it into rgba-to-i420.wasm.ts (test/render/cpu-yuv.test.ts checks they agree).
;;
;; Fixed point: a channel c (0..255) is shifted left 7 and multiplied by a Q15 coefficient with rounding
;; (q15mulr), which leaves c·coefficient in 1/128 of a level; the three products, the offset (16 or 128 levels)
;; and a half are summed in 16 bits (at most 30,720: no overflow) and shifted right 7. A block's sum of four
;; channel values (0..1020) is shifted left 5 instead, which is its mean shifted left 7.
;; The arithmetic is written out where it is used: V8 (Node 20) does not inline a wasm call that passes v128
;; values, and those calls cost a third of the time (measured: 2.2 → 1.5 ms and 8.6 → 4.0 ms a 1080p frame).
(module
  (memory (import "env" "memory") 1)

  ;; Converts a width×height frame at $src into the planes at $dy, $du and $dv (rows of width and width ÷ 2 bytes).
  ;; Width even and at least 16, height even. Two rows at a time can go straight into a whole frame's planes (a
  ;; frame warped a row pair at a time, cpu-warp.ts).
  (func (export "pack") (param $src i32) (param $dy i32) (param $du i32) (param $dv i32) (param $w i32) (param $h i32)
    (local $y i32) (local $x i32) (local $p0 i32) (local $p1 i32) (local $y0 i32) (local $y1 i32)
    (local $u i32) (local $v i32) (local $cw i32) (local $ci i32)
    (local $a v128) (local $b v128) (local $c v128) (local $d v128) (local $rg v128) (local $rg2 v128) (local $bb v128) (local $bb2 v128)
    (local $r0 v128) (local $g0 v128) (local $b0 v128) (local $r1 v128) (local $g1 v128) (local $b1 v128)
    (local $sr v128) (local $sg v128) (local $sb v128)
    (local.set $cw (i32.shr_u (local.get $w) (i32.const 1)))
    (loop $rows
      (local.set $x (i32.const 0))
      (loop $cols
        ;; Row 0's 16 pixels as planes of bytes.
        (local.set $p0 (i32.add (local.get $src) (i32.shl (i32.add (i32.mul (local.get $y) (local.get $w)) (local.get $x)) (i32.const 2))))
        (local.set $a (v128.load offset=0 (local.get $p0)))
        (local.set $b (v128.load offset=16 (local.get $p0)))
        (local.set $c (v128.load offset=32 (local.get $p0)))
        (local.set $d (v128.load offset=48 (local.get $p0)))
        (local.set $rg (i8x16.shuffle 0 4 8 12 16 20 24 28 1 5 9 13 17 21 25 29 (local.get $a) (local.get $b)))
        (local.set $rg2 (i8x16.shuffle 0 4 8 12 16 20 24 28 1 5 9 13 17 21 25 29 (local.get $c) (local.get $d)))
        (local.set $bb (i8x16.shuffle 2 6 10 14 18 22 26 30 2 6 10 14 18 22 26 30 (local.get $a) (local.get $b)))
        (local.set $bb2 (i8x16.shuffle 2 6 10 14 18 22 26 30 2 6 10 14 18 22 26 30 (local.get $c) (local.get $d)))
        (local.set $r0 (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $rg) (local.get $rg2)))
        (local.set $g0 (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $rg) (local.get $rg2)))
        (local.set $b0 (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $bb) (local.get $bb2)))
        ;; Row 1's.
        (local.set $p1 (i32.add (local.get $p0) (i32.shl (local.get $w) (i32.const 2))))
        (local.set $a (v128.load offset=0 (local.get $p1)))
        (local.set $b (v128.load offset=16 (local.get $p1)))
        (local.set $c (v128.load offset=32 (local.get $p1)))
        (local.set $d (v128.load offset=48 (local.get $p1)))
        (local.set $rg (i8x16.shuffle 0 4 8 12 16 20 24 28 1 5 9 13 17 21 25 29 (local.get $a) (local.get $b)))
        (local.set $rg2 (i8x16.shuffle 0 4 8 12 16 20 24 28 1 5 9 13 17 21 25 29 (local.get $c) (local.get $d)))
        (local.set $bb (i8x16.shuffle 2 6 10 14 18 22 26 30 2 6 10 14 18 22 26 30 (local.get $a) (local.get $b)))
        (local.set $bb2 (i8x16.shuffle 2 6 10 14 18 22 26 30 2 6 10 14 18 22 26 30 (local.get $c) (local.get $d)))
        (local.set $r1 (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $rg) (local.get $rg2)))
        (local.set $g1 (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $rg) (local.get $rg2)))
        (local.set $b1 (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $bb) (local.get $bb2)))
        ;; Y of both rows.
        (local.set $y0 (i32.add (local.get $dy) (i32.add (i32.mul (local.get $y) (local.get $w)) (local.get $x))))
        (local.set $y1 (i32.add (local.get $y0) (local.get $w)))
        (v128.store (local.get $y0)
          (i8x16.narrow_i16x8_u
            (i16x8.shr_u
      (i16x8.add
        (i16x8.add
          (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.extend_low_i8x16_u (local.get $r0)) (i32.const 7)) (v128.const i16x8 5983 5983 5983 5983 5983 5983 5983 5983))
          (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.extend_low_i8x16_u (local.get $g0)) (i32.const 7)) (v128.const i16x8 20127 20127 20127 20127 20127 20127 20127 20127)))
        (i16x8.add
          (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.extend_low_i8x16_u (local.get $b0)) (i32.const 7)) (v128.const i16x8 2032 2032 2032 2032 2032 2032 2032 2032))
          (v128.const i16x8 2112 2112 2112 2112 2112 2112 2112 2112))) ;; (16 << 7) + 64
      (i32.const 7))
            (i16x8.shr_u
      (i16x8.add
        (i16x8.add
          (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.extend_high_i8x16_u (local.get $r0)) (i32.const 7)) (v128.const i16x8 5983 5983 5983 5983 5983 5983 5983 5983))
          (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.extend_high_i8x16_u (local.get $g0)) (i32.const 7)) (v128.const i16x8 20127 20127 20127 20127 20127 20127 20127 20127)))
        (i16x8.add
          (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.extend_high_i8x16_u (local.get $b0)) (i32.const 7)) (v128.const i16x8 2032 2032 2032 2032 2032 2032 2032 2032))
          (v128.const i16x8 2112 2112 2112 2112 2112 2112 2112 2112))) ;; (16 << 7) + 64
      (i32.const 7))))
        (v128.store (local.get $y1)
          (i8x16.narrow_i16x8_u
            (i16x8.shr_u
      (i16x8.add
        (i16x8.add
          (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.extend_low_i8x16_u (local.get $r1)) (i32.const 7)) (v128.const i16x8 5983 5983 5983 5983 5983 5983 5983 5983))
          (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.extend_low_i8x16_u (local.get $g1)) (i32.const 7)) (v128.const i16x8 20127 20127 20127 20127 20127 20127 20127 20127)))
        (i16x8.add
          (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.extend_low_i8x16_u (local.get $b1)) (i32.const 7)) (v128.const i16x8 2032 2032 2032 2032 2032 2032 2032 2032))
          (v128.const i16x8 2112 2112 2112 2112 2112 2112 2112 2112))) ;; (16 << 7) + 64
      (i32.const 7))
            (i16x8.shr_u
      (i16x8.add
        (i16x8.add
          (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.extend_high_i8x16_u (local.get $r1)) (i32.const 7)) (v128.const i16x8 5983 5983 5983 5983 5983 5983 5983 5983))
          (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.extend_high_i8x16_u (local.get $g1)) (i32.const 7)) (v128.const i16x8 20127 20127 20127 20127 20127 20127 20127 20127)))
        (i16x8.add
          (i16x8.q15mulr_sat_s (i16x8.shl (i16x8.extend_high_i8x16_u (local.get $b1)) (i32.const 7)) (v128.const i16x8 2032 2032 2032 2032 2032 2032 2032 2032))
          (v128.const i16x8 2112 2112 2112 2112 2112 2112 2112 2112))) ;; (16 << 7) + 64
      (i32.const 7))))
        ;; Each 2×2 block's channel sums, then U and V.
        (local.set $sr (i16x8.add (i16x8.extadd_pairwise_i8x16_u (local.get $r0)) (i16x8.extadd_pairwise_i8x16_u (local.get $r1))))
        (local.set $sg (i16x8.add (i16x8.extadd_pairwise_i8x16_u (local.get $g0)) (i16x8.extadd_pairwise_i8x16_u (local.get $g1))))
        (local.set $sb (i16x8.add (i16x8.extadd_pairwise_i8x16_u (local.get $b0)) (i16x8.extadd_pairwise_i8x16_u (local.get $b1))))
        (local.set $ci (i32.add (i32.mul (i32.shr_u (local.get $y) (i32.const 1)) (local.get $cw)) (i32.shr_u (local.get $x) (i32.const 1))))
        (local.set $u (i32.add (local.get $du) (local.get $ci)))
        (local.set $v (i32.add (local.get $dv) (local.get $ci)))
        (v128.store64_lane 0 (local.get $u)
          (i8x16.narrow_i16x8_u
            (i16x8.shr_u
      (i16x8.add
        (i16x8.add
          (i16x8.q15mulr_sat_s (i16x8.shl (local.get $sr) (i32.const 5)) (v128.const i16x8 -3298 -3298 -3298 -3298 -3298 -3298 -3298 -3298))
          (i16x8.q15mulr_sat_s (i16x8.shl (local.get $sg) (i32.const 5)) (v128.const i16x8 -11094 -11094 -11094 -11094 -11094 -11094 -11094 -11094)))
        (i16x8.add
          (i16x8.q15mulr_sat_s (i16x8.shl (local.get $sb) (i32.const 5)) (v128.const i16x8 14392 14392 14392 14392 14392 14392 14392 14392))
          (v128.const i16x8 16448 16448 16448 16448 16448 16448 16448 16448))) ;; (128 << 7) + 64
      (i32.const 7))
            (v128.const i64x2 0 0)))
        (v128.store64_lane 0 (local.get $v)
          (i8x16.narrow_i16x8_u
            (i16x8.shr_u
      (i16x8.add
        (i16x8.add
          (i16x8.q15mulr_sat_s (i16x8.shl (local.get $sr) (i32.const 5)) (v128.const i16x8 14392 14392 14392 14392 14392 14392 14392 14392))
          (i16x8.q15mulr_sat_s (i16x8.shl (local.get $sg) (i32.const 5)) (v128.const i16x8 -13073 -13073 -13073 -13073 -13073 -13073 -13073 -13073)))
        (i16x8.add
          (i16x8.q15mulr_sat_s (i16x8.shl (local.get $sb) (i32.const 5)) (v128.const i16x8 -1319 -1319 -1319 -1319 -1319 -1319 -1319 -1319))
          (v128.const i16x8 16448 16448 16448 16448 16448 16448 16448 16448))) ;; (128 << 7) + 64
      (i32.const 7))
            (v128.const i64x2 0 0)))
        ;; The next 16 columns; the last step of a width that is not a multiple of 16 starts at width − 16
        ;; (even, so on a block boundary) and writes a few values again, the same values.
        (local.set $x (i32.add (local.get $x) (i32.const 16)))
        (if (i32.lt_u (local.get $x) (local.get $w))
          (then
            (if (i32.gt_u (local.get $x) (i32.sub (local.get $w) (i32.const 16)))
              (then (local.set $x (i32.sub (local.get $w) (i32.const 16)))))
            (br $cols))))
      (local.set $y (i32.add (local.get $y) (i32.const 2)))
      (br_if $rows (i32.lt_u (local.get $y) (local.get $h))))))
