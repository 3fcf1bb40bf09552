#!/usr/bin/env bash
# The one script every CI job calls (examples/ci/github, examples/ci/gitlab), so what a pull request previews is
# what main applies:
#   pipeline.sh preview   pulumi preview --diff --save-plan: writes preview.txt (the whole output), preview.md (the
#                         comment a reviewer reads, capped below the host's limit) and plan.json (the update plan)
#   pipeline.sh up        pulumi up, held to the reviewed plan when PULUMI_PLAN names one (pulumi up --plan)
#   pipeline.sh drift     pulumi refresh --preview-only --expect-no-changes: fails when the world differs from the
#                         state, and writes drift.md saying which resources drifted and how
#   pipeline.sh recover   after an apply that was killed (pending operations in the state, which `up` refuses), run
#                         by hand once that apply's job has ended: releases its lock (pulumi cancel), pulumi refresh
#                         --clear-pending-creates, then pulumi up with the adopt switches set for this
#                         run only (environment, never the committed stack file), so what the killed apply made is
#                         taken over, not made twice; a command that may have run on a host is named and not run
#                         again unless PIPELINE_RERUN_COMMANDS=true
# A report (preview.md, drift.md) is written whatever happens, also when the job fails before pulumi runs (no
# passphrase, a backend that refuses the login, a stack that does not exist), saying why, with every secret of the
# environment masked. Nothing here creates a stack: a mistyped PULUMI_STACK fails instead of applying the whole
# program to a new, empty stack.
#
# Environment (from the CI secret store and variables):
#   PULUMI_STACK (required)      the stack, e.g. prod; create it once by hand: pulumi stack init prod
#   PULUMI_PROGRAM_DIR           the program's directory (default: .)
#   PULUMI_BACKEND_URL           the state backend: s3://bucket?region=..., gs://bucket, azblob://container, or
#                                unset for Pulumi Cloud (then PULUMI_ACCESS_TOKEN); see the README's Pipelines section
#   PULUMI_CONFIG_PASSPHRASE     encrypts secrets in stack config, state and plans (self-managed backends)
#   PULUMI_PLAN                  (up) the reviewed plan file to hold the update to; PULUMI_REQUIRE_PLAN=true refuses
#                                to apply without one
#   PIPELINE_COMMIT              the commit (default: GITHUB_SHA, CI_COMMIT_SHA, or git's HEAD): up refuses a commit
#                                older than the one the stack last applied (tag pulumi-ops:applied-commit) unless
#                                PIPELINE_FORCE_OLDER=true
#   PIPELINE_LOCK_STALE_MINUTES  (up) a lock older than this is an apply that cannot still be running: set it to the
#                                apply job's timeout (default 60, the example workflows' timeout-minutes)
#   PIPELINE_MORE_PROBLEMS       (preview) after a preview that fails on resources' inputs, how many more previews
#                                set those resources aside to find the rest (5; 0 for one problem per run)
#   DELETE_WARNING               (preview) how many deletions and replacements put a warning atop the comment (5)
#   COMMENT_LIMIT                (preview, drift) the report's maximum length in characters (default 60000,
#                                below GitHub's 65536; GitLab notes allow 1,000,000)
#   EDGE_API_TOKEN, PAGES_ACCESS_TOKEN, POSTS_ACCESS_TOKEN, SKILLS_TOKEN, CONTROL_TOKEN, ...
#                                credentials, read by the provider from the environment (docs/configuration.md
#                                lists every variable). They are never written to stack config, so they are in no
#                                file, no state and no plan, and a plan made with the pull request's read-only
#                                credentials holds for the apply job's own. Settings that are not secret (base URLs,
#                                the account id) belong in the stack's config file, committed with the program.
set -uo pipefail
mode=${1:-}
here=$(cd "$(dirname "$0")" && pwd)
out=$(pwd) # reports are written where the job runs, for the steps that post them and keep them as artifacts
[[ -z ${PULUMI_PLAN:-} || $PULUMI_PLAN == /* ]] || PULUMI_PLAN=$out/$PULUMI_PLAN
export PULUMI_SKIP_UPDATE_CHECK=true
# Every value the report must never show, by name (report.mjs masks them).
export PIPELINE_SECRETS="PULUMI_CONFIG_PASSPHRASE PULUMI_ACCESS_TOKEN AWS_SECRET_ACCESS_KEY AWS_SESSION_TOKEN \
GOOGLE_CREDENTIALS AZURE_STORAGE_KEY AZURE_STORAGE_SAS_TOKEN AZURE_CLIENT_SECRET EDGE_API_TOKEN PAGES_ACCESS_TOKEN POSTS_ACCESS_TOKEN \
SKILLS_TOKEN CONTROL_TOKEN CONTROL_VNC_PASSWORD"

case $mode in
  preview) report=preview ;;
  drift) report=drift ;;
  up | recover) report="" ;;
  *) echo "usage: pipeline.sh preview|up|drift|recover" >&2; exit 2 ;;
esac

# Writes the report of a job that stopped before its pulumi command ran, then exits.
stop() { # $1: what failed; $2: the remedy; $3: a file with the failing command's output (optional)
  echo "pipeline.sh: $1: $2" >&2
  if [[ -n $report ]]; then
    node "$here/report.mjs" --kind "$report" --stack "${PULUMI_STACK:-?}" --status 1 --failed "$1" --remedy "$2" \
      --output "${3:-/dev/null}" >"$out/$report.md"
  fi
  [[ -n ${3:-} ]] && cat "$3" >&2
  exit 1
}
# Runs a setup step quietly; on failure, stops with its output in the report.
step() { # $1: what it does; $2: the remedy; the rest: the command
  local what=$1 remedy=$2 log
  shift 2
  log=$(mktemp)
  "$@" >"$log" 2>&1 || stop "$what" "$remedy" "$log"
  rm -f "$log"
}

[[ -n ${PULUMI_STACK:-} ]] || stop "PULUMI_STACK is not set" "set it to the stack this job deploys, e.g. prod"
cd "${PULUMI_PROGRAM_DIR:-.}" || stop "PULUMI_PROGRAM_DIR ($PULUMI_PROGRAM_DIR) does not exist" "point it at the Pulumi program"
if [[ -n ${PULUMI_BACKEND_URL:-} ]]; then
  if [[ $PULUMI_BACKEND_URL != https://* && -z ${PULUMI_CONFIG_PASSPHRASE:-} && -z ${PULUMI_CONFIG_PASSPHRASE_FILE:-} ]]; then
    stop "PULUMI_CONFIG_PASSPHRASE is not set" "add the stack's passphrase to this job's secrets (a self-managed backend encrypts secrets with it)"
  fi
  step "logging in to the state backend" "check PULUMI_BACKEND_URL and the store's credentials (AWS_ACCESS_KEY_ID..., see the README's Pipelines section)" \
    pulumi login --non-interactive "$PULUMI_BACKEND_URL"
elif [[ -z ${PULUMI_ACCESS_TOKEN:-} ]]; then
  stop "no state backend" "set PULUMI_BACKEND_URL (s3://, gs://, azblob://) or PULUMI_ACCESS_TOKEN for Pulumi Cloud"
fi
step "selecting stack $PULUMI_STACK" "create the stack once by hand (pulumi stack init $PULUMI_STACK); CI never creates one" \
  pulumi stack select "$PULUMI_STACK" --non-interactive

flags=(--non-interactive --color never)
# The commit this job runs (the comment names it; up remembers the last one applied, as a stack tag).
commit=${PIPELINE_COMMIT:-${GITHUB_SHA:-${CI_COMMIT_SHA:-$(git rev-parse HEAD 2>/dev/null || true)}}}
export PIPELINE_COMMIT=$commit

# The operations an interrupted apply left pending in the state, one "<op> <type> <name>" a line.
pending() {
  pulumi stack export 2>/dev/null | node -e '
    let text = ""; process.stdin.on("data", (d) => (text += d)).on("end", () => {
      const ops = (JSON.parse(text || "{}").deployment || {}).pending_operations || [];
      for (const o of ops) { const urn = (o.resource || {}).urn || ""; console.log(`${o.type} ${urn.split("::")[2] || "?"} ${urn.split("::")[3] || "?"}`); }
    });'
}
# An older commit than the one this stack last applied (a re-run of an old merge's job) would roll back newer work.
refuse_older() {
  local last
  last=$(pulumi stack tag get pulumi-ops:applied-commit 2>/dev/null || true)
  if [[ -n $last && -n $commit && $last != "$commit" && ${PIPELINE_FORCE_OLDER:-false} != true ]] && git merge-base --is-ancestor "$commit" "$last" 2>/dev/null; then
    stop "commit ${commit:0:12} is older than ${last:0:12}, which $PULUMI_STACK last applied: applying it would undo what came after" \
      "run the newest main's apply instead; to apply this older commit on purpose (a rollback), set PIPELINE_FORCE_OLDER=true for this job"
  fi
}
# Remembers the commit applied (a stack tag), for refuse_older; a backend without stack tags is said, not hidden.
remember_applied() {
  [[ -n $commit ]] || return 0
  pulumi stack tag set pulumi-ops:applied-commit "$commit" >/dev/null 2>&1 ||
    echo "pipeline.sh: warning: could not tag the stack with the commit applied; an older commit's apply will not be refused" >&2
}
# The engine's lines that bury an apply's error (one per planned operation the stopped update never reached), and its
# advice to run `pulumi cancel` on a lock (which would break an apply still holding it) are replaced: lock_note says
# whose the lock is and what to do.
quiet_engine() {
  awk '/expected resource operations for urn:.* but none were seen/ { next }
       /currently locked/ { sub(/ Either wait for the other process\(es\) to end or delete the lock file with `pulumi cancel`\./, ""); print; next }
       { print; fflush() }'
}
# After an apply held to a plan stopped at an error, the engine names every planned operation it did not reach,
# unchanged resources included: said as one line counting the changes not reached (the plan's steps tell them).
not_reached() { # $1: the apply's output
  grep -q "but none were seen" "$1" || return 0
  node - "$1" "${PULUMI_PLAN:-}" <<'NODE'
const fs = require("node:fs");
const [file, planFile] = process.argv.slice(2);
const urns = [...new Set([...fs.readFileSync(file, "utf8").matchAll(/expected resource operations for (urn:\S+) but none were seen/g)].map((m) => m[1]))];
let plans = {};
try { const p = JSON.parse(fs.readFileSync(planFile, "utf8")); plans = (p.plan ?? p).resourcePlans ?? {}; } catch {}
const changes = urns.filter((u) => !plans[u] || (plans[u].steps ?? []).some((op) => op !== "same"));
const names = changes.map((u) => u.split("::").pop());
if (changes.length) console.log(`pipeline.sh: ${changes.length} planned change${changes.length === 1 ? " was" : "s were"} not reached, the apply having stopped at the error above: ${names.slice(0, 20).join(", ")}${names.length > 20 ? ", ..." : ""}`);
else console.log("pipeline.sh: the apply stopped at the error above; every change the plan had was reached");
NODE
}
# The locks an apply was refused for, as the self-managed backend names them ("<url>: created by user@host (pid N)
# at <time>"): each with its owner and age, and whether that apply can still be running. One that cannot (its
# process is gone from this machine, or it is older than PIPELINE_LOCK_STALE_MINUTES, the apply job's timeout) was
# left by a killed apply: recover releases it. Pulumi Cloud names no lock here (its own page shows the update).
lock_note() { # $1: the refused command's output
  grep -q "currently locked" "$1" || return 0
  node - "$1" "${PIPELINE_LOCK_STALE_MINUTES:-60}" "$(hostname)" <<'NODE'
const [file, stale, here] = process.argv.slice(2);
const text = require("node:fs").readFileSync(file, "utf8");
const ago = (ms) => (ms < 120_000 ? `${Math.round(ms / 1000)} s` : ms < 7_200_000 ? `${Math.round(ms / 60_000)} min` : `${(ms / 3_600_000).toFixed(1)} h`);
for (const [, , user, host, pid, at] of text.matchAll(/^\s*(\S+): created by (.*)@(\S+) \(pid (\d+)\) at (\S+)\s*$/gm)) {
  const age = Date.now() - Date.parse(at);
  const alive = () => { try { process.kill(Number(pid), 0); return true; } catch (e) { return e.code === "EPERM"; } };
  const gone = host === here && !alive() ? "its process is gone from this machine" : age > Number(stale) * 60_000 ? `older than the apply job's timeout (PIPELINE_LOCK_STALE_MINUTES=${stale})` : "";
  const owner = `${user}@${host} (pid ${pid}), taken ${ago(age)} ago at ${at}`;
  console.log(gone
    ? `pipeline.sh: the stack is locked by an apply that is not running: ${owner}, ${gone}. Run pipeline.sh recover (this workflow's recover job): it releases the lock and finishes what that apply left, making nothing twice`
    : `pipeline.sh: another apply of this stack is running: ${owner}. Wait for it to finish, then re-run this job (never pulumi cancel while it runs: that breaks it); if its job was killed, run pipeline.sh recover once it has ended`);
}
NODE
}
# The engine stops a preview at the first resource whose check fails, so a pull request with five mistakes would take
# five pushes. After a failed preview, the resources it named are set aside (--exclude) and the preview run again,
# up to PIPELINE_MORE_PROBLEMS (5) more times, until no other resource fails: each round's errors are added to the
# output, so the comment names every problem at once. (The job still fails; nothing is applied, no plan is kept.)
more_problems() { # $1: the failed preview's output, to which each round's errors are appended
  local excluded=() round=0 type name found seen
  seen=$(mktemp)
  grep -oE "^ *error: [^ ]+ resource '[^']+'" "$1" | sed -E "s/^ *error: //" | sort -u >"$seen"
  while (( round < ${PIPELINE_MORE_PROBLEMS:-5} )); do
    excluded=()
    while read -r type name; do
      [[ -n $name ]] && excluded+=(--exclude "urn:pulumi:**::$type::$name")
    done < <(sed -E "s/^([^ ]+) resource '([^']+)'$/\1 \2/" "$seen")
    [[ ${#excluded[@]} -gt 0 ]] || break
    found=$(pulumi preview "${flags[@]}" "${excluded[@]}" 2>&1 | grep -E "^ *error: " | sed -E 's/^ *//' | sort -u || true)
    found=$(echo "$found" | grep -vxF -f <(grep -E "^ *error: " "$1" | sed -E 's/^ *//') || true)
    [[ -n $found ]] || break
    { echo "pipeline.sh: with the resources above set aside, the preview also finds:"; echo "$found"; } >>"$1"
    echo "$found" | grep -oE "^error: [^ ]+ resource '[^']+'" | sed -E "s/^error: //" | sort -u >>"$seen"
    sort -u -o "$seen" "$seen"
    round=$((round + 1))
  done
  rm -f "$seen"
}
case $mode in
  preview)
    status=0
    rm -f "$out/plan.json" # a failed preview leaves no plan behind to be applied
    pulumi preview --diff "${flags[@]}" --save-plan "$out/plan.json" >"$out/preview.txt" 2>&1 || status=$?
    [[ $status -eq 0 ]] || more_problems "$out/preview.txt"
    node "$here/report.mjs" --kind preview --stack "$PULUMI_STACK" --status "$status" --output "$out/preview.txt" >"$out/preview.md"
    cat "$out/preview.txt"
    exit "$status"
    ;;
  drift)
    status=0
    pulumi refresh --preview-only --expect-no-changes --diff "${flags[@]}" >"$out/drift.txt" 2>&1 || status=$?
    node "$here/report.mjs" --kind drift --stack "$PULUMI_STACK" --status "$status" --output "$out/drift.txt" >"$out/drift.md"
    cat "$out/drift.txt"
    exit "$status"
    ;;
  up)
    plan=()
    if [[ -n ${PULUMI_PLAN:-} ]]; then
      [[ -s $PULUMI_PLAN ]] || stop "the reviewed plan $PULUMI_PLAN is missing" "run the pull request's preview again, or apply without a plan by hand"
      plan=(--plan "$PULUMI_PLAN") # the update stops at the first operation the reviewed preview did not show, unsent
    elif [[ ${PULUMI_REQUIRE_PLAN:-false} == true ]]; then
      stop "no reviewed plan for this commit" "apply only what a pull request previewed: set PULUMI_PLAN"
    fi
    refuse_older
    interrupted=$(pending)
    if [[ -n $interrupted ]]; then
      stop "an earlier apply of $PULUMI_STACK was interrupted; its pending operations: $(echo "$interrupted" | paste -sd ';' | sed 's/;/; /g')" \
        "run pipeline.sh recover (by hand, or this workflow's recover job): it clears them and applies taking over what the interrupted apply made, so nothing is made twice"
    fi
    pulumi up --yes --diff "${flags[@]}" "${plan[@]}" 2>&1 | tee "$out/up.txt" | quiet_engine
    status=${PIPESTATUS[0]}
    [[ $status -ne 0 ]] || remember_applied
    [[ $status -eq 0 ]] || { lock_note "$out/up.txt"; not_reached "$out/up.txt"; }
    if [[ $status -ne 0 ]] && grep -q "violates plan" "$out/up.txt"; then
      echo "pipeline.sh: what main holds no longer matches the reviewed preview (main moved, or the state changed since); nothing outside the plan was sent. Preview again (push to the branch, or run this workflow on main by hand) and apply that." >&2
    fi
    exit "$status"
    ;;
  recover)
    refuse_older
    interrupted=$(pending)
    [[ -n $interrupted ]] || echo "pipeline.sh: no pending operations; applying with the adopt switches all the same"
    echo "$interrupted" | sed '/^$/d; s/^/pipeline.sh: pending: /'
    # A command cut by the kill may have run on its host: it is never run again without someone saying so.
    commands=$(echo "$interrupted" | awk '$2 ~ /RemoteCommand$|RemoteDesktopSession$/ { print $3 }' | paste -sd ' ')
    if [[ -n $commands && ${PIPELINE_RERUN_COMMANDS:-false} != true ]]; then
      stop "the command of $commands may have run on its host when the apply was interrupted" \
        "check the host: if it ran and must not run twice, remove the resource from the program (or pulumi state delete it after the next up); to run it again, set PIPELINE_RERUN_COMMANDS=true for this recovery"
    fi
    # The killed apply's lock is released: run recover only once that apply is dead (its job failed or was killed).
    pulumi cancel --yes "${flags[@]}" >/dev/null 2>&1 || true
    pulumi refresh --yes --skip-preview --clear-pending-creates "${flags[@]}" 2>&1 | tee "$out/recover.txt" | quiet_engine
    status=${PIPESTATUS[0]}
    [[ $status -eq 0 ]] || exit "$status"
    # For this run only: every resource whose object the interrupted apply made takes it over instead of a second.
    # A command the killed apply started is run again only as PIPELINE_RERUN_COMMANDS says (checked above).
    EDGE_ADOPT_EXISTING=true PAGES_ADOPT_EXISTING=true POSTS_ADOPT_EXISTING=true RUNNER_ADOPT_EXISTING=true SKILLS_ADOPT_EXISTING=true \
      CONTROL_RERUN_INTERRUPTED=${PIPELINE_RERUN_COMMANDS:-false} pulumi up --yes --diff "${flags[@]}" 2>&1 | tee -a "$out/recover.txt" | quiet_engine
    status=${PIPESTATUS[0]}
    [[ $status -ne 0 ]] || remember_applied
    exit "$status"
    ;;
esac
