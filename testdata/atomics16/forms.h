// forms.h: the atomic forms probe.cu records, one per FORM number
// (probe.cu includes it; run.sh builds one binary per FORM). Each form
// sets W (bytes one thread's atomic touches), KIND (the 16-bit element
// format the inputs are drawn in: 0 f16, 1 bf16, 2 raw bits), SH (1: the
// atomic runs on shared memory), CONT (1: 64 threads share one address,
// with exactly-adding or order-free inputs), CAS (1: a compare operand)
// and BODY(p, bp, cp, op): the inline PTX on address p with operands read
// from bp/cp, the old value stored to op.
#define LD16(q) (*(const unsigned short *)(q))
#define LD32(q) (*(const unsigned *)(q))
#define LD64(q) (*(const unsigned long long *)(q))
#define SHA(p) ((unsigned)__cvta_generic_to_shared(p))
#define ATOM16(ins, addr, ac)                                                  \
  { unsigned short o; asm volatile(ins " %0, [%1], %2;" : "=h"(o) : ac(addr), "h"(LD16(bp)) : "memory"); *(unsigned short *)op = o; }
#define RED16(ins, addr, ac) asm volatile(ins " [%0], %1;" ::ac(addr), "h"(LD16(bp)) : "memory");
#define ATOM32(ins, addr, ac)                                                  \
  { unsigned o; asm volatile(ins " %0, [%1], %2;" : "=r"(o) : ac(addr), "r"(LD32(bp)) : "memory"); *(unsigned *)op = o; }
#define RED32(ins, addr, ac) asm volatile(ins " [%0], %1;" ::ac(addr), "r"(LD32(bp)) : "memory");
#define H(i) LD16(bp + 2 * (i))
#define R(i) LD32(bp + 4 * (i))
#define ATOMV2H(ins) { unsigned short o0, o1; asm volatile(ins " {%0,%1}, [%2], {%3,%4};" : "=h"(o0), "=h"(o1) : "l"(p), "h"(H(0)), "h"(H(1)) : "memory"); \
  unsigned short *q = (unsigned short *)op; q[0] = o0; q[1] = o1; }
#define ATOMV4H(ins) { unsigned short o0, o1, o2, o3; asm volatile(ins " {%0,%1,%2,%3}, [%4], {%5,%6,%7,%8};" : "=h"(o0), "=h"(o1), "=h"(o2), "=h"(o3) : "l"(p), "h"(H(0)), "h"(H(1)), "h"(H(2)), "h"(H(3)) : "memory"); \
  unsigned short *q = (unsigned short *)op; q[0] = o0; q[1] = o1; q[2] = o2; q[3] = o3; }
#define ATOMV8H(ins) { unsigned short o0, o1, o2, o3, o4, o5, o6, o7; \
  asm volatile(ins " {%0,%1,%2,%3,%4,%5,%6,%7}, [%8], {%9,%10,%11,%12,%13,%14,%15,%16};" \
    : "=h"(o0), "=h"(o1), "=h"(o2), "=h"(o3), "=h"(o4), "=h"(o5), "=h"(o6), "=h"(o7) \
    : "l"(p), "h"(H(0)), "h"(H(1)), "h"(H(2)), "h"(H(3)), "h"(H(4)), "h"(H(5)), "h"(H(6)), "h"(H(7)) : "memory"); \
  unsigned short *q = (unsigned short *)op; q[0] = o0; q[1] = o1; q[2] = o2; q[3] = o3; q[4] = o4; q[5] = o5; q[6] = o6; q[7] = o7; }
#define REDV8H(ins) asm volatile(ins " [%0], {%1,%2,%3,%4,%5,%6,%7,%8};" :: "l"(p), "h"(H(0)), "h"(H(1)), "h"(H(2)), "h"(H(3)), "h"(H(4)), "h"(H(5)), "h"(H(6)), "h"(H(7)) : "memory");
#define ATOMV2R(ins) { unsigned o0, o1; asm volatile(ins " {%0,%1}, [%2], {%3,%4};" : "=r"(o0), "=r"(o1) : "l"(p), "r"(R(0)), "r"(R(1)) : "memory"); \
  unsigned *q = (unsigned *)op; q[0] = o0; q[1] = o1; }
#define ATOMV4R(ins) { unsigned o0, o1, o2, o3; asm volatile(ins " {%0,%1,%2,%3}, [%4], {%5,%6,%7,%8};" : "=r"(o0), "=r"(o1), "=r"(o2), "=r"(o3) : "l"(p), "r"(R(0)), "r"(R(1)), "r"(R(2)), "r"(R(3)) : "memory"); \
  unsigned *q = (unsigned *)op; q[0] = o0; q[1] = o1; q[2] = o2; q[3] = o3; }
// 128-bit: operands as two 64-bit halves packed with mov.b128.
#define B128CAS(sp, ac, addr) { unsigned long long lo, hi; asm volatile("{ .reg .b128 d, b, c; mov.b128 b, {%2, %3}; mov.b128 c, {%4, %5};\n" \
  "atom." sp ".cas.b128 d, [%6], b, c; mov.b128 {%0, %1}, d; }" : "=l"(lo), "=l"(hi) \
  : "l"(LD64(bp)), "l"(LD64(bp + 8)), "l"(LD64(cp)), "l"(LD64(cp + 8)), ac(addr) : "memory"); \
  ((unsigned long long *)op)[0] = lo; ((unsigned long long *)op)[1] = hi; }
#define B128EXCH(sp, ac, addr) { unsigned long long lo, hi; asm volatile("{ .reg .b128 d, b; mov.b128 b, {%2, %3};\n" \
  "atom." sp ".exch.b128 d, [%4], b; mov.b128 {%0, %1}, d; }" : "=l"(lo), "=l"(hi) \
  : "l"(LD64(bp)), "l"(LD64(bp + 8)), ac(addr) : "memory"); \
  ((unsigned long long *)op)[0] = lo; ((unsigned long long *)op)[1] = hi; }
// ld/st.b128: old = the loaded 16 bytes; memory gets them xor b (unpacked, xored, repacked).
#define B128LDST { unsigned long long lo, hi; asm volatile("{ .reg .b128 t; .reg .b64 l, h; ld.global.b128 t, [%2]; mov.b128 {l, h}, t;\n" \
  "mov.b64 %0, l; mov.b64 %1, h; xor.b64 l, l, %3; xor.b64 h, h, %4; mov.b128 t, {l, h}; st.global.b128 [%2], t; }" \
  : "=l"(lo), "=l"(hi) : "l"(p), "l"(LD64(bp)), "l"(LD64(bp + 8)) : "memory"); \
  ((unsigned long long *)op)[0] = lo; ((unsigned long long *)op)[1] = hi; }

#if FORM == 1
#define W 2
#define KIND 0
#define BODY ATOM16("atom.global.add.noftz.f16", p, "l")
#elif FORM == 2
#define W 2
#define KIND 1
#define BODY ATOM16("atom.global.add.noftz.bf16", p, "l")
#elif FORM == 3
#define W 2
#define KIND 0
#define SH 1
#define BODY ATOM16("atom.shared.add.noftz.f16", SHA(p), "r")
#elif FORM == 4
#define W 2
#define KIND 1
#define SH 1
#define BODY ATOM16("atom.shared.add.noftz.bf16", SHA(p), "r")
#elif FORM == 5
#define W 2
#define KIND 0
#define BODY ATOM16("atom.add.noftz.f16", p, "l")
#elif FORM == 6
#define W 2
#define KIND 0
#define BODY RED16("red.global.add.noftz.f16", p, "l")
#elif FORM == 7
#define W 2
#define KIND 1
#define BODY RED16("red.global.add.noftz.bf16", p, "l")
#elif FORM == 8
#define W 4
#define KIND 0
#define BODY ATOM32("atom.global.add.noftz.f16x2", p, "l")
#elif FORM == 9
#define W 4
#define KIND 1
#define BODY ATOM32("atom.global.add.noftz.bf16x2", p, "l")
#elif FORM == 10
#define W 4
#define KIND 0
#define SH 1
#define BODY ATOM32("atom.shared.add.noftz.f16x2", SHA(p), "r")
#elif FORM == 11
#define W 4
#define KIND 1
#define SH 1
#define BODY ATOM32("atom.shared.add.noftz.bf16x2", SHA(p), "r")
#elif FORM == 12
#define W 4
#define KIND 0
#define BODY RED32("red.global.add.noftz.f16x2", p, "l")
#elif FORM == 13
#define W 4
#define KIND 1
#define BODY RED32("red.global.add.noftz.bf16x2", p, "l")
#elif FORM == 14
#define W 4
#define KIND 1
#define SH 1
#define BODY ATOM32("atom.add.noftz.bf16x2", p, "l")
#elif FORM == 15
#define W 4
#define KIND 0
#define BODY ATOMV2H("atom.global.add.noftz.v2.f16")
#elif FORM == 16
#define W 8
#define KIND 1
#define BODY ATOMV4H("atom.global.add.noftz.v4.bf16")
#elif FORM == 17
#define W 16
#define KIND 0
#define BODY ATOMV8H("atom.global.add.noftz.v8.f16")
#elif FORM == 18
#define W 16
#define KIND 1
#define BODY ATOMV8H("atom.global.add.noftz.v8.bf16")
#elif FORM == 19
#define W 16
#define KIND 0
#define BODY ATOMV8H("atom.global.min.noftz.v8.f16")
#elif FORM == 20
#define W 16
#define KIND 0
#define BODY ATOMV8H("atom.global.max.noftz.v8.f16")
#elif FORM == 21
#define W 16
#define KIND 1
#define BODY ATOMV8H("atom.global.min.noftz.v8.bf16")
#elif FORM == 22
#define W 16
#define KIND 1
#define BODY ATOMV8H("atom.global.max.noftz.v8.bf16")
#elif FORM == 23
#define W 8
#define KIND 0
#define BODY ATOMV2R("atom.global.add.noftz.v2.f16x2")
#elif FORM == 24
#define W 16
#define KIND 1
#define BODY ATOMV4R("atom.global.add.noftz.v4.bf16x2")
#elif FORM == 25
#define W 16
#define KIND 0
#define BODY ATOMV4R("atom.global.min.noftz.v4.f16x2")
#elif FORM == 26
#define W 16
#define KIND 1
#define BODY ATOMV4R("atom.global.max.noftz.v4.bf16x2")
#elif FORM == 27
#define W 16
#define KIND 0
#define BODY REDV8H("red.global.add.noftz.v8.f16")
#elif FORM == 28
#define W 16
#define KIND 2
#define BODY B128LDST
#elif FORM == 29
#define W 16
#define KIND 2
#define CAS 1
#define BODY B128CAS("global", "l", p)
#elif FORM == 30
#define W 16
#define KIND 2
#define BODY B128EXCH("global", "l", p)
#elif FORM == 31
#define W 16
#define KIND 2
#define CAS 1
#define SH 1
#define BODY B128CAS("shared", "r", SHA(p))
#elif FORM == 32
#define W 16
#define KIND 2
#define SH 1
#define BODY B128EXCH("shared", "r", SHA(p))
#elif FORM == 33
#define W 2
#define KIND 0
#define CONT 1
#define BODY ATOM16("atom.global.add.noftz.f16", p, "l")
#elif FORM == 34
#define W 2
#define KIND 1
#define CONT 1
#define SH 1
#define BODY ATOM16("atom.shared.add.noftz.bf16", SHA(p), "r")
#elif FORM == 35
#define W 4
#define KIND 0
#define CONT 1
#define BODY RED32("red.global.add.noftz.f16x2", p, "l")
#elif FORM == 36
#define W 16
#define KIND 1
#define CONT 1
#define BODY ATOMV8H("atom.global.add.noftz.v8.bf16")
#elif FORM == 37
#define W 16
#define KIND 0
#define CONT 1
#define MM 1
#define BODY ATOMV8H("atom.global.max.noftz.v8.f16")
#elif FORM == 38
#define W 16
#define KIND 1
#define CONT 1
#define MM 1
#define BODY ATOMV4R("atom.global.min.noftz.v4.bf16x2")
#endif
#define NFORMS 38
#ifndef SH
#define SH 0
#endif
#ifndef CONT
#define CONT 0
#endif
#ifndef MM
#define MM 0
#endif
#ifndef CAS
#define CAS 0
#endif
