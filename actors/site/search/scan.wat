;; The exact cosine scan's inner loop: one integer dot product per stored row, sixteen
;; components at a time. Rows are int8 codes (vector-codes.ts), the query int16 codes;
;; each row's int8 lanes are widened to int16 and multiplied pairwise into int32 lanes
;; (i32x4.dot_i16x8_s). The caller lays out memory: rows (n × d bytes) at `rows`, the
;; query (d int16) at `q`, and gets each row's sum (n int32) at `out`; it scales the sums
;; back to cosines (the codes' scales). d is a multiple of 16; the query's codes are
;; small enough that no sum can overflow (vector-codes.ts).
(module
  (memory (export "memory") 1)
  (func (export "scan") (param $rows i32) (param $n i32) (param $d i32) (param $q i32) (param $out i32)
    (local $i i32) (local $p i32) (local $qp i32) (local $end i32) (local $acc v128) (local $r v128)
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $acc (v128.const i32x4 0 0 0 0))
        (local.set $p (local.get $rows))
        (local.set $qp (local.get $q))
        (local.set $end (i32.add (local.get $rows) (local.get $d)))
        (block $row_done
          (loop $lanes
            (br_if $row_done (i32.ge_u (local.get $p) (local.get $end)))
            (local.set $r (v128.load (local.get $p)))
            (local.set $acc (i32x4.add (local.get $acc)
              (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $r)) (v128.load (local.get $qp)))))
            (local.set $acc (i32x4.add (local.get $acc)
              (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $r)) (v128.load offset=16 (local.get $qp)))))
            (local.set $p (i32.add (local.get $p) (i32.const 16)))
            (local.set $qp (i32.add (local.get $qp) (i32.const 32)))
            (br $lanes)))
        (i32.store
          (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))
          (i32.add
            (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
            (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc)))))
        (local.set $rows (local.get $end))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $row)))))
