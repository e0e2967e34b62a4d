import numpy as np

a = np.ones(512 * 1024**2)  # 4 GiB of float64
print(a.sum())
