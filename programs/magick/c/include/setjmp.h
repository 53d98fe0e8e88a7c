/*
 * setjmp/longjmp for C built with clang's wasm setjmp/longjmp lowering
 * (-mllvm -wasm-enable-sjlj): Debian 12's wasi-libc has no setjmp.h. clang
 * turns every call of setjmp and longjmp into calls of the runtime in
 * ../sjlj.c and wasm exceptions; this header only has to give the buffer
 * its size and the functions their names.
 *
 * Our own code (MIT).
 */
#ifndef COMPUTER_SETJMP_H
#define COMPUTER_SETJMP_H

/* What sjlj.c keeps in a buffer: the invocation of the function that
 * called setjmp, its label, and the argument a longjmp throws. */
typedef struct {
	void *invocation;
	unsigned int label;
	void *env;
	int value;
} computer_jmp_buf;

typedef computer_jmp_buf jmp_buf[1];
typedef computer_jmp_buf sigjmp_buf[1];

int setjmp(jmp_buf env);
_Noreturn void longjmp(jmp_buf env, int value);
#define _setjmp setjmp
#define _longjmp longjmp
#define sigsetjmp(env, savemask) setjmp(env)
#define siglongjmp longjmp

#endif
