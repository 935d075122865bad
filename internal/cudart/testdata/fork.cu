// A child made by fork() exits (running the runtime's exit handler); the
// parent's simulator must live on.
#include <cstdio>
#include <cstdlib>
#include <sys/wait.h>
#include <unistd.h>
__global__ void fill(int *p, int v) { p[threadIdx.x] = v; }
int main() {
  int *d;
  printf("malloc %s\n", cudaGetErrorName(cudaMalloc(&d, 64 * sizeof(int))));
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) exit(0); /* runs atexit handlers in the child */
  int status;
  waitpid(pid, &status, 0);
  printf("child exited %d\n", WEXITSTATUS(status));
  fill<<<1, 64>>>(d, 7);
  int h[64] = {0};
  cudaError_t e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("after the child: %s %d %d\n", cudaGetErrorName(e), h[0], h[63]);
  return 0;
}
