# Lowers its own CPU-time limit to 1 s, then spins: the kernel's SIGXCPU, as the grader's own
# RLIMIT_CPU would send it, without waiting for the wall clock.
import resource

soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
resource.setrlimit(resource.RLIMIT_CPU, (1, hard))
while True:
    pass
