;; Draws an opaque RGBA texture over the whole frame, scaled and moved along the axes (no rotation): bilinear,
;; CLAMP_TO_EDGE, then opacity over a constant background — what the layer shader's `onClear` variant draws for a
;; Ken Burns still (cover.ts), at a fraction of a software rasteriser's cost. `npm run build:wasm` assembles it.
;;
;; The caller lays out per frame: for each pair of columns, the two texels' byte offsets in a row (i32, i32) at
;; $cols and their weights (u16 ×4 for each pixel, 0..256 toward the right texel) at $wts; for each row, the two
;; rows' byte offsets and the weight toward the lower (i32 ×3) at $rows; at $k the opacity (u16 ×8, 0..256) and
;; background × (256 − opacity) + 128 (u16 ×8: R G B A R G B A). Products stay under 65,536 (255 · 256 + 128):
;; unsigned 16-bit lanes hold them.
;; The arithmetic is written out where it is used: V8 (Node 20) does not inline a wasm call that passes v128
;; values, and those calls cost a third of the time (measured: 2.2 → 1.5 ms and 8.6 → 4.0 ms a 1080p frame).
(module
  (memory (import "env" "memory") 1)

  (func (export "warp") (param $src i32) (param $dst i32) (param $w i32) (param $h i32) (param $cols i32) (param $wts i32) (param $rows i32) (param $k i32)
    (local $y i32) (local $p i32) (local $r0 i32) (local $r1 i32) (local $out i32) (local $c i32)
    (local $fy v128) (local $fyl v128) (local $wx v128) (local $wl v128) (local $t0 v128) (local $t1 v128) (local $v v128) (local $o v128) (local $bg v128)
    (local.set $o (v128.load (local.get $k)))
    (local.set $bg (v128.load offset=16 (local.get $k)))
    (local.set $out (local.get $dst))
    (loop $rowsLoop
      (local.set $r0 (i32.add (local.get $src) (i32.load offset=0 (local.get $rows))))
      (local.set $r1 (i32.add (local.get $src) (i32.load offset=4 (local.get $rows))))
      (local.set $fy (i16x8.splat (i32.load offset=8 (local.get $rows))))
      (local.set $fyl (i16x8.sub (v128.const i16x8 256 256 256 256 256 256 256 256) (local.get $fy)))
      (local.set $p (i32.const 0))
      (loop $pairs
        (local.set $c (i32.add (local.get $cols) (i32.shl (local.get $p) (i32.const 3))))
        (local.set $wx (v128.load (i32.add (local.get $wts) (i32.shl (local.get $p) (i32.const 4)))))
        (local.set $wl (i16x8.sub (v128.const i16x8 256 256 256 256 256 256 256 256) (local.get $wx)))
        ;; Each row's four texels, [A left, A right, B left, B right], reordered to the left pair then the right.
        (local.set $t0
          (v128.load64_lane 1 (i32.add (local.get $r0) (i32.load offset=4 (local.get $c)))
            (v128.load64_zero (i32.add (local.get $r0) (i32.load (local.get $c))))))
        (local.set $t0 (i8x16.shuffle 0 1 2 3 8 9 10 11 4 5 6 7 12 13 14 15 (local.get $t0) (local.get $t0)))
        (local.set $t1
          (v128.load64_lane 1 (i32.add (local.get $r1) (i32.load offset=4 (local.get $c)))
            (v128.load64_zero (i32.add (local.get $r1) (i32.load (local.get $c))))))
        (local.set $t1 (i8x16.shuffle 0 1 2 3 8 9 10 11 4 5 6 7 12 13 14 15 (local.get $t1) (local.get $t1)))
        ;; Along x in both rows, then along y, then opacity over the background.
        (local.set $v
          (i16x8.shr_u
            (i16x8.add
              (i16x8.add
                (i16x8.mul (i16x8.shr_u
                    (i16x8.add
                      (i16x8.add
                        (i16x8.mul (i16x8.extend_low_i8x16_u (local.get $t0)) (local.get $wl))
                        (i16x8.mul (i16x8.extend_high_i8x16_u (local.get $t0)) (local.get $wx)))
                      (v128.const i16x8 128 128 128 128 128 128 128 128))
                    (i32.const 8)) (local.get $fyl))
                (i16x8.mul (i16x8.shr_u
                    (i16x8.add
                      (i16x8.add
                        (i16x8.mul (i16x8.extend_low_i8x16_u (local.get $t1)) (local.get $wl))
                        (i16x8.mul (i16x8.extend_high_i8x16_u (local.get $t1)) (local.get $wx)))
                      (v128.const i16x8 128 128 128 128 128 128 128 128))
                    (i32.const 8)) (local.get $fy)))
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
