/*
 * The run-time half of clang's wasm setjmp/longjmp lowering
 * (-mllvm -wasm-enable-sjlj), which Debian 12's wasi-libc lacks. The
 * compiler rewrites a function that calls setjmp to record each setjmp
 * with __wasm_setjmp, to ask __wasm_setjmp_test, when a longjmp
 * exception reaches it, whether the buffer is one of its own, and each
 * longjmp into __wasm_longjmp, which throws the C longjmp tag with a
 * pointer to {env, value}. Written against that ABI (LLVM's
 * WebAssemblyLowerEmscriptenEHSjLj pass).
 *
 * Our own code (MIT).
 */
#include <setjmp.h>
#include <stdint.h>

void __wasm_setjmp(void *env, uint32_t label, void *invocation)
{
	computer_jmp_buf *buf = env;
	buf->invocation = invocation;
	buf->label = label;
}

uint32_t __wasm_setjmp_test(void *env, void *invocation)
{
	computer_jmp_buf *buf = env;
	return buf->invocation == invocation ? buf->label : 0;
}

void __wasm_longjmp(void *env, int value)
{
	computer_jmp_buf *buf = env;
	buf->env = env;
	/* longjmp(env, 0) makes setjmp return 1. */
	buf->value = value ? value : 1;
	/* Tag 1 is the C longjmp tag (__c_longjmp). */
	__builtin_wasm_throw(1, &buf->env);
}
