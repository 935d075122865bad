package sweep

import (
	"fmt"
	"path/filepath"
)

// K8sOptions fill in the Indexed Job manifest.
type K8sOptions struct {
	Image     string // a container image with the warpsim binary at Exe
	Exe       string // the binary's path inside the image
	Claim     string // a PersistentVolumeClaim (ReadWriteMany) holding the work directory
	MountPath string // where the claim is mounted; the work directory must be under it
	Parallel  int    // pods at once (the SLURM throttle's counterpart)
	CPU, Mem  string // each pod's requests
}

// K8sManifest is an Indexed Job that runs the work directory's tasks, one
// pod per completion index ($JOB_COMPLETION_INDEX is the task): the same
// work directory, per-task databases and `warpsim sweep collect` as on
// SLURM. warpsim does not run it; `kubectl apply -f` does.
func K8sManifest(w WorkDir, job *Job, opt K8sOptions) string {
	abs, _ := filepath.Abs(string(w))
	par := opt.Parallel
	if par <= 0 || par > job.Tasks {
		par = job.Tasks
	}
	exe := opt.Exe
	if exe == "" {
		exe = "/usr/local/bin/warpsim"
	}
	cpu, mem := opt.CPU, opt.Mem
	if cpu == "" {
		cpu = "1"
	}
	if mem == "" {
		mem = "1Gi"
	}
	return fmt.Sprintf(`# warpsim sweep as a Kubernetes Indexed Job: pod i runs task i of the work
# directory %[1]s (cells i, i+%[2]d, …) and records them in
# tasks/task-i.db on the shared volume; then run
#   warpsim sweep collect %[1]s --db %[3]s
# where the volume is mounted. A pod that fails is retried (backoffLimitPerIndex)
# and skips the cells its task database already has.
apiVersion: batch/v1
kind: Job
metadata:
  name: warpsim-sweep
spec:
  completionMode: Indexed
  completions: %[2]d
  parallelism: %[4]d
  backoffLimitPerIndex: 3
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: task
        image: %[5]s
        command: ["%[6]s", "sweep", "task", "--workdir", "%[1]s"]
        env:
        - name: WARPSIM_PROGRESS
          value: "0"
        resources:
          requests: {cpu: "%[7]s", memory: "%[8]s"}
        volumeMounts:
        - name: work
          mountPath: %[9]s
      volumes:
      - name: work
        persistentVolumeClaim:
          claimName: %[10]s
`, abs, job.Tasks, job.DB, par, opt.Image, exe, cpu, mem, opt.MountPath, opt.Claim)
}
