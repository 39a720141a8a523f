;; Draws an opaque RGBA texture over the whole frame, scaled and moved along the axes (no rotation): bilinear,
;; CLAMP_TO_EDGE, then opacity over a constant background — what the layer shader's `onClear` variant draws for a
;; Ken Burns still (cover.ts), at a fraction of a software rasteriser's cost. `npm run build:wasm` assembles it.
;;
;; The caller lays out per frame: for each pair of columns, the two texels' byte offsets in a row (i32, i32) at
;; $cols and their weights (u16 ×4 for each pixel, 0..256 toward the right texel) at $wts; for each row, the two
;; rows' byte offsets and the weight toward the lower (i32 ×3) at $rows; at $k the opacity (u16 ×8, 0..256),
;; background × (256 − opacity) + 128 (u16 ×8: R G B A R G B A), and which texture rows the two row buffers at
;; $xrows hold (i32 ×2, byte offsets; −1: none). Products stay under 65,536 (255 · 256 + 128): unsigned 16-bit
;; lanes hold them.
;;
;; Separable, as the arithmetic always was: a texture row is sampled along x once (rounded to 8 bits) into a row
;; buffer, and every output row between it and the next blends two such buffers along y. A Ken Burns zoom draws
;; a texture at about a texel a pixel, so most texture rows serve two output rows: the gathers, most of the cost,
;; halve. The buffers outlive a call: two rows at a time (drawI420) find the rows the last call left.
;; The arithmetic is written out where it is used: V8 (Node 20) does not inline a wasm call that passes v128
;; values, and those calls cost a third of the time (measured: 2.2 → 1.5 ms and 8.6 → 4.0 ms a 1080p frame).
(module
  (memory (import "env" "memory") 1)

  ;; One texture row at $row sampled along x into $dst: w pixels.
  (func $alongX (param $row i32) (param $dst i32) (param $w i32) (param $cols i32) (param $wts i32)
    (local $p i32) (local $c i32) (local $wx v128) (local $t v128) (local $h v128)
    (loop $pairs
      (local.set $c (i32.add (local.get $cols) (i32.shl (local.get $p) (i32.const 3))))
      (local.set $wx (v128.load (i32.add (local.get $wts) (i32.shl (local.get $p) (i32.const 4)))))
      ;; Two pixels' four texels, [A left, A right, B left, B right], reordered to the left pair then the right.
      (local.set $t
        (v128.load64_lane 1 (i32.add (local.get $row) (i32.load offset=4 (local.get $c)))
          (v128.load64_zero (i32.add (local.get $row) (i32.load (local.get $c))))))
      (local.set $t (i8x16.shuffle 0 1 2 3 8 9 10 11 4 5 6 7 12 13 14 15 (local.get $t) (local.get $t)))
      (local.set $h
        (i16x8.shr_u
          (i16x8.add
            (i16x8.add
              (i16x8.mul (i16x8.extend_low_i8x16_u (local.get $t))
                (i16x8.sub (v128.const i16x8 256 256 256 256 256 256 256 256) (local.get $wx)))
              (i16x8.mul (i16x8.extend_high_i8x16_u (local.get $t)) (local.get $wx)))
            (v128.const i16x8 128 128 128 128 128 128 128 128))
          (i32.const 8)))
      (v128.store64_lane 0 (i32.add (local.get $dst) (i32.shl (local.get $p) (i32.const 3))) (i8x16.narrow_i16x8_u (local.get $h) (local.get $h)))
      (local.set $p (i32.add (local.get $p) (i32.const 1)))
      (br_if $pairs (i32.lt_u (local.get $p) (i32.shr_u (local.get $w) (i32.const 1))))))

  ;; The row buffer (0 or 1) holding texture row $key, or −1.
  (func $held (param $k i32) (param $key i32) (result i32)
    (if (result i32) (i32.eq (i32.load offset=32 (local.get $k)) (local.get $key))
      (then (i32.const 0))
      (else (select (i32.const 1) (i32.const -1) (i32.eq (i32.load offset=36 (local.get $k)) (local.get $key))))))

  (func (export "warp") (param $src i32) (param $dst i32) (param $w i32) (param $h i32) (param $cols i32) (param $wts i32) (param $rows i32) (param $k i32) (param $xrows i32)
    (local $y i32) (local $i i32) (local $n i32) (local $s0 i32) (local $s1 i32) (local $a i32) (local $b i32) (local $fade i32)
    (local $fy v128) (local $fyl v128) (local $o v128) (local $bg v128) (local $lo v128) (local $hi v128) (local $t0 v128) (local $t1 v128)
    (local.set $o (v128.load (local.get $k)))
    (local.set $bg (v128.load offset=16 (local.get $k)))
    (local.set $fade (i32.ne (i32.load16_u (local.get $k)) (i32.const 256)))
    (local.set $n (i32.shl (local.get $w) (i32.const 2)))
    (loop $rowsLoop
      ;; The two texture rows in the two buffers: each sampled along x unless a buffer holds it, into the buffer
      ;; the other row does not need.
      (local.set $s0 (call $held (local.get $k) (i32.load offset=0 (local.get $rows))))
      (local.set $s1 (call $held (local.get $k) (i32.load offset=4 (local.get $rows))))
      (if (i32.lt_s (local.get $s0) (i32.const 0))
        (then
          (local.set $s0 (i32.eqz (local.get $s1)))
          (call $alongX (i32.add (local.get $src) (i32.load offset=0 (local.get $rows)))
            (i32.add (local.get $xrows) (i32.mul (local.get $s0) (local.get $n))) (local.get $w) (local.get $cols) (local.get $wts))
          (i32.store offset=32 (i32.add (local.get $k) (i32.shl (local.get $s0) (i32.const 2))) (i32.load offset=0 (local.get $rows)))))
      (if (i32.lt_s (local.get $s1) (i32.const 0))
        (then
          (local.set $s1 (i32.eqz (local.get $s0)))
          (call $alongX (i32.add (local.get $src) (i32.load offset=4 (local.get $rows)))
            (i32.add (local.get $xrows) (i32.mul (local.get $s1) (local.get $n))) (local.get $w) (local.get $cols) (local.get $wts))
          (i32.store offset=32 (i32.add (local.get $k) (i32.shl (local.get $s1) (i32.const 2))) (i32.load offset=4 (local.get $rows)))))
      (local.set $a (i32.add (local.get $xrows) (i32.mul (local.get $s0) (local.get $n))))
      (local.set $b (i32.add (local.get $xrows) (i32.mul (local.get $s1) (local.get $n))))
      (local.set $fy (i16x8.splat (i32.load offset=8 (local.get $rows))))
      (local.set $fyl (i16x8.sub (v128.const i16x8 256 256 256 256 256 256 256 256) (local.get $fy)))
      ;; Along y, four pixels a step; a row of 4k + 2 pixels ends on the low half of a step.
      (local.set $i (i32.const 0))
      (loop $blend
        (local.set $t0 (v128.load (i32.add (local.get $a) (local.get $i))))
        (local.set $t1 (v128.load (i32.add (local.get $b) (local.get $i))))
        (local.set $lo
          (i16x8.shr_u
            (i16x8.add
              (i16x8.add
                (i16x8.mul (i16x8.extend_low_i8x16_u (local.get $t0)) (local.get $fyl))
                (i16x8.mul (i16x8.extend_low_i8x16_u (local.get $t1)) (local.get $fy)))
              (v128.const i16x8 128 128 128 128 128 128 128 128))
            (i32.const 8)))
        (local.set $hi
          (i16x8.shr_u
            (i16x8.add
              (i16x8.add
                (i16x8.mul (i16x8.extend_high_i8x16_u (local.get $t0)) (local.get $fyl))
                (i16x8.mul (i16x8.extend_high_i8x16_u (local.get $t1)) (local.get $fy)))
              (v128.const i16x8 128 128 128 128 128 128 128 128))
            (i32.const 8)))
        ;; Opacity over the background; at full opacity (v · 256 + 128) >> 8 is v: skipped.
        (if (local.get $fade)
          (then
            (local.set $lo (i16x8.shr_u (i16x8.add (i16x8.mul (local.get $lo) (local.get $o)) (local.get $bg)) (i32.const 8)))
            (local.set $hi (i16x8.shr_u (i16x8.add (i16x8.mul (local.get $hi) (local.get $o)) (local.get $bg)) (i32.const 8)))))
        (local.set $lo (i8x16.narrow_i16x8_u (local.get $lo) (local.get $hi)))
        (if (i32.le_u (i32.add (local.get $i) (i32.const 16)) (local.get $n))
          (then (v128.store (i32.add (local.get $dst) (local.get $i)) (local.get $lo)))
          (else (v128.store64_lane 0 (i32.add (local.get $dst) (local.get $i)) (local.get $lo))))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br_if $blend (i32.lt_u (local.get $i) (local.get $n))))
      (local.set $dst (i32.add (local.get $dst) (local.get $n)))
      (local.set $rows (i32.add (local.get $rows) (i32.const 12)))
      (local.set $y (i32.add (local.get $y) (i32.const 1)))
      (br_if $rowsLoop (i32.lt_u (local.get $y) (local.get $h))))))
