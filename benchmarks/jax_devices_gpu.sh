#!/usr/bin/env bash
# Both on-device trainers over the GPUs in one script (under five minutes): self-play PPO on heads-up no-limit and
# R-NaD on Leduc, their steps per second, decisions per second (all devices and per device) and seconds per
# million hands, on 1 device and, when more are present, on all of them with as many tables per device (so the
# second run has N times the tables: the per-device rate shows how well the work spreads). Then a table of both.
#     bash benchmarks/jax_devices_gpu.sh [OUT_DIR]      # one JSON per run and summary.json in OUT_DIR (default out/gpu_devices)
# Sizes per device (environment overrides, e.g. tiny ones to check the script on a CPU): PPO_ENVS=32768 tables,
# PPO_UPDATES=8, RNAD_BATCH=1024 hands per learner step, RNAD_STEPS=2000 learner steps, RNAD_SET="steps_per_update=500".
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-out/gpu_devices}"
ppo_envs="${PPO_ENVS:-32768}"
ppo_updates="${PPO_UPDATES:-8}"
rnad_batch="${RNAD_BATCH:-1024}"
rnad_steps="${RNAD_STEPS:-2000}"
rnad_set="${RNAD_SET:-steps_per_update=500}"
mkdir -p "$out"
n=$(python -c "import jax; print(len(jax.devices()))")
python -c "import jax; print('devices:', jax.devices())"
nvidia-smi --query-gpu=name,memory.total --format=csv || true
counts=1
if [ "$n" -gt 1 ]; then counts="1 $n"; fi
run() {  # run LIMIT_SECONDS COMMAND...: a run past its limit is reported and the others still run
  timeout "$1" "${@:2}" || echo "failed or timed out after $1 s: ${*:2}" >&2
}
for d in $counts; do
  run 75 python -m agent_zoo.jax_ppo train --game nolimit --devices "$d" --num-envs $((ppo_envs * d)) \
    --steps $((ppo_envs * d * 32 * ppo_updates)) --set rollout_length=32 minibatches=32 --no-progress --json "$out/ppo_${d}.json"
  run 60 python -m agent_zoo.jax_rnad train --game leduc --devices "$d" --batch-size $((rnad_batch * d)) \
    --steps "$rnad_steps" --set $rnad_set --no-progress --json "$out/rnad_${d}.json"
done
python - "$out" "$ppo_envs" "$rnad_batch" $counts <<'EOF'
import json, sys
from pathlib import Path

out, per_device, counts = Path(sys.argv[1]), {"ppo": int(sys.argv[2]), "rnad": int(sys.argv[3])}, [int(c) for c in sys.argv[4:]]
rows = []
for trainer in ("ppo", "rnad"):
    for d in counts:
        path = out / f"{trainer}_{d}.json"
        if not path.is_file():
            continue
        r = json.loads(path.read_text())
        rows.append({"trainer": trainer, "devices": r["devices"], "tables": per_device[trainer] * d,
                     "steps_per_second": r["steps_per_second"], "decisions_per_second": r["decisions_per_second"],
                     "decisions_per_second_per_device": r["decisions_per_second_per_device"],
                     "seconds_per_million_hands": r["seconds_per_million_hands"], "compile_seconds": r["compile_seconds"]})
for row in rows:  # decisions/s per device on N devices over the same on one: 1.0 is perfect spreading
    one = next((x for x in rows if x["trainer"] == row["trainer"] and x["devices"] == 1), None)
    row["per_device_vs_one"] = row["decisions_per_second_per_device"] / one["decisions_per_second_per_device"] if one else None
print(f"{'trainer':8} {'devices':>7} {'tables':>9} {'steps/s':>12} {'decisions/s':>14} {'per device':>14} {'vs 1 device':>11} "
      f"{'s / 1M hands':>13} {'compile s':>9}")
for r in rows:
    print(f"{r['trainer']:8} {r['devices']:>7} {r['tables']:>9,} {r['steps_per_second']:>12,.0f} {r['decisions_per_second']:>14,.0f} "
          f"{r['decisions_per_second_per_device']:>14,.0f} {r['per_device_vs_one'] or 0:>11.2f} {r['seconds_per_million_hands']:>13,.2f} "
          f"{r['compile_seconds']:>9.1f}")
(out / "summary.json").write_text(json.dumps(rows, indent=1) + "\n")
print(f"summary: {out / 'summary.json'}")
EOF
