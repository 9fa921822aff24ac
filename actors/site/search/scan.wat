;; The exact cosine scan's inner loop: one dot product per stored row, four lanes
;; at a time (f32x4). Rows and the query are unit length, so a dot product is the
;; cosine similarity. The caller lays out memory: rows (n × d f32) at `rows`, the
;; query (d f32) at `q`, scores (n f32) written at `out`; d is a multiple of 4.
(module
  (memory (export "memory") 1)
  (func (export "scan") (param $rows i32) (param $n i32) (param $d i32) (param $q i32) (param $out i32)
    (local $i i32) (local $p i32) (local $qp i32) (local $end i32) (local $acc v128)
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $acc (v128.const f32x4 0 0 0 0))
        (local.set $p (local.get $rows))
        (local.set $qp (local.get $q))
        (local.set $end (i32.add (local.get $rows) (i32.shl (local.get $d) (i32.const 2))))
        (block $row_done
          (loop $lanes
            (br_if $row_done (i32.ge_u (local.get $p) (local.get $end)))
            (local.set $acc (f32x4.add (local.get $acc) (f32x4.mul (v128.load (local.get $p)) (v128.load (local.get $qp)))))
            (local.set $p (i32.add (local.get $p) (i32.const 16)))
            (local.set $qp (i32.add (local.get $qp) (i32.const 16)))
            (br $lanes)))
        (f32.store
          (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))
          (f32.add
            (f32.add (f32x4.extract_lane 0 (local.get $acc)) (f32x4.extract_lane 1 (local.get $acc)))
            (f32.add (f32x4.extract_lane 2 (local.get $acc)) (f32x4.extract_lane 3 (local.get $acc)))))
        (local.set $rows (local.get $end))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $row)))))
