#!/usr/bin/env bash
# The one script both CI examples call, so what a pull request previews is what main applies.
#   pipeline.sh preview   pulumi preview --diff; writes preview.md (the comment a reviewer reads)
#   pipeline.sh up        pulumi up
# Environment (from the CI secret store and variables):
#   PULUMI_STACK (required)      the stack, e.g. prod
#   PULUMI_PROGRAM_DIR           the program's directory (default: .)
#   PULUMI_BACKEND_URL           state backend: a self-managed one (s3://bucket, azblob://..., gs://...,
#                                file://<dir>?metadata=skip - see docs/reliability.md) or unset for Pulumi Cloud
#                                (then PULUMI_ACCESS_TOKEN)
#   PULUMI_CONFIG_PASSPHRASE     encrypts secrets in stack config and state (self-managed backends)
#   EDGE_API_TOKEN, PAGES_ACCESS_TOKEN, POSTS_ACCESS_TOKEN, POSTS_APP_TOKEN, SKILLS_TOKEN, CONTROL_TOKEN,
#   CONTROL_VNC_PASSWORD         credentials: each one set is written to stack config as a secret, never echoed
#   EDGE_BASE_URL, EDGE_ACCOUNT_ID, PAGES_BASE_URL, PAGES_APP_ID, POSTS_BASE_URL, RUNNER_HOST, SKILLS_URL,
#   CONTROL_URL                  plain settings, written to stack config when set
set -euo pipefail
mode=${1:?usage: pipeline.sh preview|up}
: "${PULUMI_STACK:?set PULUMI_STACK to the stack to deploy}"
out=$(pwd) # preview.md is written where the job runs, for the step that posts it
cd "${PULUMI_PROGRAM_DIR:-.}"
export PULUMI_SKIP_UPDATE_CHECK=true
pulumi stack select --create "$PULUMI_STACK" --non-interactive >/dev/null

config() { # $1 config key, $2 environment variable, $3 "secret" or ""
  local value=${!2:-}
  [[ -n $value ]] || return 0
  if [[ $3 == secret ]]; then
    printf '%s' "$value" | pulumi config set --secret "$1" --non-interactive >/dev/null
  else
    pulumi config set "$1" "$value" --non-interactive >/dev/null
  fi
}
config ops:edgeApiToken EDGE_API_TOKEN secret
config ops:edgeBaseUrl EDGE_BASE_URL ""
config ops:edgeAccountId EDGE_ACCOUNT_ID ""
config ops:pagesAccessToken PAGES_ACCESS_TOKEN secret
config ops:pagesBaseUrl PAGES_BASE_URL ""
config ops:pagesAppId PAGES_APP_ID ""
config ops:postsAccessToken POSTS_ACCESS_TOKEN secret
config ops:postsAppToken POSTS_APP_TOKEN secret
config ops:postsBaseUrl POSTS_BASE_URL ""
config ops:runnerHost RUNNER_HOST ""
config ops:skillsUrl SKILLS_URL ""
config ops:skillsToken SKILLS_TOKEN secret
config ops:controlUrl CONTROL_URL ""
config ops:controlToken CONTROL_TOKEN secret
config ops:controlVncPassword CONTROL_VNC_PASSWORD secret

case $mode in
  preview)
    status=0
    pulumi preview --diff --non-interactive --color never >"$out/preview.txt" 2>&1 || status=$?
    {
      echo "### pulumi preview: \`$PULUMI_STACK\`"
      echo
      if [[ $status -eq 0 ]]; then echo "The changes this pull request makes when it is merged:"; else echo "**The preview failed** (exit $status): the details are below."; fi
      echo
      echo '```diff'
      cat "$out/preview.txt"
      echo '```'
    } >"$out/preview.md"
    cat "$out/preview.txt"
    exit "$status"
    ;;
  up)
    pulumi up --yes --non-interactive --color never
    ;;
  *)
    echo "usage: pipeline.sh preview|up" >&2
    exit 2
    ;;
esac
