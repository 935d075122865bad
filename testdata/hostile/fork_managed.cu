// Issue 16 #8: what a fork()ed child sees of managed, __managed__ and pinned
// memory, and whether its writes reach the parent. Usage: fork_managed MODE
// (0: cudaMallocManaged, 1: __managed__, 2: cudaMallocHost, 3: the child calls cudaMalloc)
#include <cstdio>
#include <cstdlib>
#include <sys/wait.h>
#include <unistd.h>
#include <cuda_runtime.h>
__managed__ int mv;
int main(int argc, char **argv) {
  int mode = argc > 1 ? atoi(argv[1]) : 0;
  int *m, *h;
  cudaMallocManaged(&m, 4);
  cudaMallocHost(&h, 4);
  cudaDeviceSynchronize();
  *m = 1; mv = 1; *h = 1;
  int *p = mode == 0 ? m : mode == 1 ? &mv : h;
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    if (mode == 3) {
      void *q;
      printf("child cudaMalloc: %s\n", cudaGetErrorName(cudaMalloc(&q, 16)));
      fflush(stdout);
      _exit(0);
    }
    printf("child reads %d\n", *p);
    fflush(stdout);
    *p = 2;
    printf("child wrote 2\n");
    fflush(stdout);
    _exit(0);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  if (WIFEXITED(st)) printf("child exited %d\n", WEXITSTATUS(st));
  else if (WIFSIGNALED(st)) printf("child killed by signal %d\n", WTERMSIG(st));
  if (mode < 3) printf("mode %d: parent sees %d\n", mode, *p);
  printf("parent sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
