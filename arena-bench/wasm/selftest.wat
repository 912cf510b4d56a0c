;; The self-test module for browsers.mjs --selftest: a loop the engine must
;; run, and a memory that can grow to the whole 32-bit address space.
;; selftest.wasm is built from this file by `wat2wasm selftest.wat` (Debian
;; package wabt); both are committed so the self-test needs no toolchain.
(module
  ;; One page to start, 65536 pages (4 GiB, the wasm32 limit) at most.
  (memory (export "memory") 1 65536)

  ;; 0 + 1 + ... + (n - 1), as an i64 so it does not wrap for large n.
  (func (export "sum") (param $n i32) (result i64)
    (local $i i32)
    (local $acc i64)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $acc
          (i64.add (local.get $acc) (i64.extend_i32_u (local.get $i))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (local.get $acc))

  ;; memory.grow by `pages`: the old size in pages, or -1 if it failed.
  (func (export "grow") (param $pages i32) (result i32)
    (memory.grow (local.get $pages)))

  (func (export "store8") (param $addr i32) (param $value i32)
    (i32.store8 (local.get $addr) (local.get $value)))

  (func (export "load8") (param $addr i32) (result i32)
    (i32.load8_u (local.get $addr)))

  ;; memory.fill of `len` bytes at `addr` (bulk memory): writes every page, so
  ;; the engine must commit them, not only reserve them.
  (func (export "fill") (param $addr i32) (param $value i32) (param $len i32)
    (memory.fill (local.get $addr) (local.get $value) (local.get $len))))
