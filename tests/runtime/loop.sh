# loop.sh SIM: z from rt_solve_block against Cardano's root of z^3 + z = t,
# (p, q) against the circle-line intersection,
# and x = integral of z against 3/4 z^4 + 1/2 z^2 (msbdf, whose global
# error is some hundred times its rtol: rtol 1e-11 for 1e-7).
. "$(dirname "$0")/lib.sh"
run 0 "$1" --stop-time 10 --output-step 0.05 --rtol 1e-11 --atol 1e-13
cardano='t = $c["time"]; q = sqrt(t * t / 4 + 1 / 27); a = t / 2 + q; b = t / 2 - q
    ca = (a < 0 ? -1 : 1) * exp(log(a < 0 ? -a : a) / 3)
    cb = b == 0 ? 0 : (b < 0 ? -1 : 1) * exp(log(b < 0 ? -b : b) / 3)
    root = ca + cb'
check_max "z (root)" 1e-12 "$tmp/out.csv" "$cardano; err = \$c[\"z\"] - root"
check_max "z (residual)" 1e-13 "$tmp/out.csv" 'z = $c["z"]; err = z * z * z + z - $c["time"]'
circle='t = $c["time"]; s = 0.5 * sin(t); r2 = 1 + t; p = (s + sqrt(2 * r2 - s * s)) / 2'
check_max "p (circle and line)" 1e-12 "$tmp/out.csv" "$circle; err = \$c[\"p\"] - p"
check_max "q (circle and line)" 1e-12 "$tmp/out.csv" "$circle; err = \$c[\"q\"] - (p - s)"
check_max "x (integral)" 1e-7 "$tmp/out.csv" 'z = $c["z"]; err = $c["x"] - (0.75 * z^4 + 0.5 * z^2)'
