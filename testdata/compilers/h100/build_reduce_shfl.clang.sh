_NVVM_BRANCH_=nvvm
_SPACE_= 
_CUDART_=cudart
_HERE_=/usr/local/cuda/bin
_THERE_=/usr/local/cuda/bin
_TARGET_SIZE_=
_TARGET_DIR_=
_TARGET_DIR_=targets/x86_64-linux
TOP=/usr/local/cuda/bin/..
CICC_PATH=/usr/local/cuda/bin/../nvvm/bin
NVVMIR_LIBRARY_DIR=/usr/local/cuda/bin/../nvvm/libdevice
LD_LIBRARY_PATH=/usr/local/cuda/bin/../lib:/usr/local/nvidia/lib64:/usr/local/nvidia/lib
PATH=/usr/local/cuda/bin/../nvvm/bin:/usr/local/cuda/bin:/usr/local/cuda/bin:/opt/torch/.venv/bin:/usr/local/nvidia/bin:/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/opt/gcc/bin
INCLUDES="-I/usr/local/cuda/bin/../targets/x86_64-linux/include"  
SYSTEM_INCLUDES="-isystem" "/usr/local/cuda/bin/../targets/x86_64-linux/include/cccl"  
LIBRARIES=  "-L/usr/local/cuda/bin/../targets/x86_64-linux/lib/stubs" "-L/usr/local/cuda/bin/../targets/x86_64-linux/lib"
CUDAFE_FLAGS=
PTXAS_FLAGS=
gcc -D__CUDA_ARCH_LIST__=900 -E -x c++ -D__CUDACC__ -D__NVCC__  -O3 -I"src" "-I/usr/local/cuda/bin/../targets/x86_64-linux/include"   "-isystem" "/usr/local/cuda/bin/../targets/x86_64-linux/include/cccl"    -D__CUDACC_VER_MAJOR__=13 -D__CUDACC_VER_MINOR__=0 -D__CUDACC_VER_BUILD__=88 -D__CUDA_API_VER_MAJOR__=13 -D__CUDA_API_VER_MINOR__=0 -D__NVCC_DIAG_PRAGMA_SUPPORT__=1 -D__CUDACC_DEVICE_ATOMIC_BUILTINS__=1 -include "cuda_runtime.h" -m64 "src/reduce_shfl.cu" -o "/tmp/tmpxft_000002f7_00000000-5_reduce_shfl.cpp4.ii" 
cudafe++ --c++17 --static-host-stub --device-hidden-visibility --gnu_version=130300 --display_error_number --orig_src_file_name "src/reduce_shfl.cu" --orig_src_path_name "/work/main/.dev/compilers/src/reduce_shfl.cu" --allow_managed  --m64 --parse_templates --gen_c_file_name "/tmp/tmpxft_000002f7_00000000-6_reduce_shfl.cudafe1.cpp" --stub_file_name "tmpxft_000002f7_00000000-6_reduce_shfl.cudafe1.stub.c" --gen_module_id_file --module_id_file_name "/tmp/tmpxft_000002f7_00000000-4_reduce_shfl.module_id" "/tmp/tmpxft_000002f7_00000000-5_reduce_shfl.cpp4.ii" 
gcc -D__CUDA_ARCH__=900 -D__CUDA_ARCH_LIST__=900 -E -x c++  -DCUDA_DOUBLE_MATH_FUNCTIONS -D__CUDACC__ -D__NVCC__  -O3 -I"src" "-I/usr/local/cuda/bin/../targets/x86_64-linux/include"   "-isystem" "/usr/local/cuda/bin/../targets/x86_64-linux/include/cccl"    -D__CUDACC_VER_MAJOR__=13 -D__CUDACC_VER_MINOR__=0 -D__CUDACC_VER_BUILD__=88 -D__CUDA_API_VER_MAJOR__=13 -D__CUDA_API_VER_MINOR__=0 -D__NVCC_DIAG_PRAGMA_SUPPORT__=1 -D__CUDACC_DEVICE_ATOMIC_BUILTINS__=1 -include "cuda_runtime.h" -m64 "src/reduce_shfl.cu" -o "/tmp/tmpxft_000002f7_00000000-9_reduce_shfl.cpp1.ii" 
"$CICC_PATH/cicc" --c++17 --static-host-stub --device-hidden-visibility --gnu_version=130300 --display_error_number --orig_src_file_name "src/reduce_shfl.cu" --orig_src_path_name "/work/main/.dev/compilers/src/reduce_shfl.cu" --allow_managed   -arch compute_90 -m64 --no-version-ident -ftz=0 -prec_div=1 -prec_sqrt=1 -fmad=1 --include_file_name "tmpxft_000002f7_00000000-3_reduce_shfl.fatbin.c" -tused --module_id_file_name "/tmp/tmpxft_000002f7_00000000-4_reduce_shfl.module_id" --gen_c_file_name "/tmp/tmpxft_000002f7_00000000-6_reduce_shfl.cudafe1.c" --stub_file_name "/tmp/tmpxft_000002f7_00000000-6_reduce_shfl.cudafe1.stub.c" --gen_device_file_name "/tmp/tmpxft_000002f7_00000000-6_reduce_shfl.cudafe1.gpu"  "/tmp/tmpxft_000002f7_00000000-9_reduce_shfl.cpp1.ii" -o "/tmp/tmpxft_000002f7_00000000-6_reduce_shfl.ptx"
cp src/reduce_shfl.clang.ptx "/tmp/tmpxft_000002f7_00000000-6_reduce_shfl.ptx"
ptxas -arch=sm_90 -m64  "/tmp/tmpxft_000002f7_00000000-6_reduce_shfl.ptx"  -o "/tmp/tmpxft_000002f7_00000000-10_reduce_shfl.sm_90.cubin" 
fatbinary -64 --cicc-cmdline="-ftz=0 -prec_div=1 -prec_sqrt=1 -fmad=1 " "--image3=kind=elf,sm=90,file=/tmp/tmpxft_000002f7_00000000-10_reduce_shfl.sm_90.cubin" "--image3=kind=ptx,sm=90,file=/tmp/tmpxft_000002f7_00000000-6_reduce_shfl.ptx" --embedded-fatbin="/tmp/tmpxft_000002f7_00000000-3_reduce_shfl.fatbin.c" 
rm /tmp/tmpxft_000002f7_00000000-3_reduce_shfl.fatbin
gcc -D__CUDA_ARCH__=900 -D__CUDA_ARCH_LIST__=900 -c -x c++  -DCUDA_DOUBLE_MATH_FUNCTIONS -O3 -Wno-psabi -I"src" "-I/usr/local/cuda/bin/../targets/x86_64-linux/include"   "-isystem" "/usr/local/cuda/bin/../targets/x86_64-linux/include/cccl"   -m64 "/tmp/tmpxft_000002f7_00000000-6_reduce_shfl.cudafe1.cpp" -o "/tmp/tmpxft_000002f7_00000000-11_reduce_shfl.o" 
nvlink -m64 --arch=sm_90 --register-link-binaries="/tmp/tmpxft_000002f7_00000000-7_reduce_shfl_dlink.reg.c"    "-L/usr/local/cuda/bin/../targets/x86_64-linux/lib/stubs" "-L/usr/local/cuda/bin/../targets/x86_64-linux/lib" -cpu-arch=X86_64 "/tmp/tmpxft_000002f7_00000000-11_reduce_shfl.o"  -lcudadevrt  -o "/tmp/tmpxft_000002f7_00000000-12_reduce_shfl_dlink.sm_90.cubin" --host-ccbin "gcc"
fatbinary -64 --cicc-cmdline="-ftz=0 -prec_div=1 -prec_sqrt=1 -fmad=1 " -link "--image3=kind=elf,sm=90,file=/tmp/tmpxft_000002f7_00000000-12_reduce_shfl_dlink.sm_90.cubin" --embedded-fatbin="/tmp/tmpxft_000002f7_00000000-8_reduce_shfl_dlink.fatbin.c" 
rm /tmp/tmpxft_000002f7_00000000-8_reduce_shfl_dlink.fatbin
gcc -D__CUDA_ARCH_LIST__=900 -c -x c++ -DFATBINFILE="\"/tmp/tmpxft_000002f7_00000000-8_reduce_shfl_dlink.fatbin.c\"" -DREGISTERLINKBINARYFILE="\"/tmp/tmpxft_000002f7_00000000-7_reduce_shfl_dlink.reg.c\""  -I. -D__NV_EXTRA_INITIALIZATION= -D__NV_EXTRA_FINALIZATION= -D__CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__  -O3 -Wno-psabi -I"src" "-I/usr/local/cuda/bin/../targets/x86_64-linux/include"   "-isystem" "/usr/local/cuda/bin/../targets/x86_64-linux/include/cccl"    -D__CUDACC_VER_MAJOR__=13 -D__CUDACC_VER_MINOR__=0 -D__CUDACC_VER_BUILD__=88 -D__CUDA_API_VER_MAJOR__=13 -D__CUDA_API_VER_MINOR__=0 -D__NVCC_DIAG_PRAGMA_SUPPORT__=1 -D__CUDACC_DEVICE_ATOMIC_BUILTINS__=1 -m64 "/usr/local/cuda/bin/crt/link.stub" -o "/tmp/tmpxft_000002f7_00000000-13_reduce_shfl_dlink.o" 
g++ -D__CUDA_ARCH_LIST__=900 -O3 -m64 -Wl,--start-group "/tmp/tmpxft_000002f7_00000000-13_reduce_shfl_dlink.o" "/tmp/tmpxft_000002f7_00000000-11_reduce_shfl.o"   "-L/usr/local/cuda/bin/../targets/x86_64-linux/lib/stubs" "-L/usr/local/cuda/bin/../targets/x86_64-linux/lib"  -lcudadevrt  -lcudart_static  -lrt -lpthread  -ldl  -Wl,--end-group -o "bin/reduce_shfl.clang" 
