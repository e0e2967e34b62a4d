"""Reference: the largest proper divisor, or prime."""

n = int(input())
print(next((n // d for d in range(2, int(n**0.5) + 1) if n % d == 0), "prime"))
