;; Draws an opaque RGBA texture over the whole frame, scaled and moved along the axes (no rotation): bilinear,
;; CLAMP_TO_EDGE, then opacity over a constant background — what the layer shader's `onClear` variant draws for a
;; Ken Burns still (cover.ts), at a fraction of a software rasteriser's cost. `npm run build:wasm` assembles it.
;;
;; The caller lays out per frame: for each pair of columns, the two texels' byte offsets in a row (i32, i32) at
;; $cols and their weights (u16 ×4 for each pixel, 0..256 toward the right texel) at $wts; for each row, the two
;; rows' byte offsets and the weight toward the lower (i32 ×3) at $rows; at $k the opacity (u16 ×8, 0..256) and
;; background × (256 − opacity) + 128 (u16 ×8: R G B A R G B A). Products stay under 65,536 (255 · 256 + 128):
;; unsigned 16-bit lanes hold them.
(module
  (memory (import "env" "memory") 1)

  ;; Two pixels' bilinear mix along x in one row: the left texels (low halves of t's 8-byte halves) and right.
  (func $mix (param $t v128) (param $w v128) (result v128)
    (i16x8.shr_u
      (i16x8.add
        (i16x8.add
          (i16x8.mul (i16x8.extend_low_i8x16_u (i8x16.shuffle 0 1 2 3 8 9 10 11 0 0 0 0 0 0 0 0 (local.get $t) (local.get $t)))
            (i16x8.sub (v128.const i16x8 256 256 256 256 256 256 256 256) (local.get $w)))
          (i16x8.mul (i16x8.extend_low_i8x16_u (i8x16.shuffle 4 5 6 7 12 13 14 15 0 0 0 0 0 0 0 0 (local.get $t) (local.get $t))) (local.get $w)))
        (v128.const i16x8 128 128 128 128 128 128 128 128))
      (i32.const 8)))

  (func (export "warp") (param $src i32) (param $dst i32) (param $w i32) (param $h i32) (param $cols i32) (param $wts i32) (param $rows i32) (param $k i32)
    (local $y i32) (local $p i32) (local $r0 i32) (local $r1 i32) (local $out i32) (local $c i32)
    (local $fy v128) (local $wx v128) (local $t0 v128) (local $t1 v128) (local $v v128) (local $o v128) (local $bg v128)
    (local.set $o (v128.load (local.get $k)))
    (local.set $bg (v128.load offset=16 (local.get $k)))
    (local.set $out (local.get $dst))
    (loop $rowsLoop
      (local.set $r0 (i32.add (local.get $src) (i32.load offset=0 (local.get $rows))))
      (local.set $r1 (i32.add (local.get $src) (i32.load offset=4 (local.get $rows))))
      (local.set $fy (i16x8.splat (i32.load offset=8 (local.get $rows))))
      (local.set $p (i32.const 0))
      (loop $pairs
        (local.set $c (i32.add (local.get $cols) (i32.shl (local.get $p) (i32.const 3))))
        (local.set $wx (v128.load (i32.add (local.get $wts) (i32.shl (local.get $p) (i32.const 4)))))
        (local.set $t0
          (v128.load64_lane 1 (i32.add (local.get $r0) (i32.load offset=4 (local.get $c)))
            (v128.load64_zero (i32.add (local.get $r0) (i32.load (local.get $c))))))
        (local.set $t1
          (v128.load64_lane 1 (i32.add (local.get $r1) (i32.load offset=4 (local.get $c)))
            (v128.load64_zero (i32.add (local.get $r1) (i32.load (local.get $c))))))
        ;; Along x in both rows, then along y, then opacity over the background.
        (local.set $v
          (i16x8.shr_u
            (i16x8.add
              (i16x8.add
                (i16x8.mul (call $mix (local.get $t0) (local.get $wx)) (i16x8.sub (v128.const i16x8 256 256 256 256 256 256 256 256) (local.get $fy)))
                (i16x8.mul (call $mix (local.get $t1) (local.get $wx)) (local.get $fy)))
              (v128.const i16x8 128 128 128 128 128 128 128 128))
            (i32.const 8)))
        (local.set $v (i16x8.shr_u (i16x8.add (i16x8.mul (local.get $v) (local.get $o)) (local.get $bg)) (i32.const 8)))
        (v128.store64_lane 0 (local.get $out) (i8x16.narrow_i16x8_u (local.get $v) (local.get $v)))
        (local.set $out (i32.add (local.get $out) (i32.const 8)))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br_if $pairs (i32.lt_u (local.get $p) (i32.shr_u (local.get $w) (i32.const 1)))))
      (local.set $rows (i32.add (local.get $rows) (i32.const 12)))
      (local.set $y (i32.add (local.get $y) (i32.const 1)))
      (br_if $rowsLoop (i32.lt_u (local.get $y) (local.get $h))))))
