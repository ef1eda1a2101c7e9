#!/bin/sh
# Agent Memory's Claude Code hook, as the plugin runs it (hooks/hooks.json; docs/agents.md,
# "Claude Code: the plugin", "A server started for you"). The event arrives on stdin. When `agent-memory serve`
# or `agent-memory mcp` runs on the vault, a read-only event (SessionStart, UserPromptSubmit) is
# answered by that server through its hook socket with curl, without starting Node; anything
# else (no server, no curl, another event, a refusal, a timeout) runs
#   agent-memory hook claude-code --vault "$AGENT_MEMORY_VAULT" --agent "$AGENT_MEMORY_AGENT"
# with the same event, which prints what it prints. Like the CLI's hook, it always exits 0:
# a hook never blocks a session.

vault=${AGENT_MEMORY_VAULT-}
# `~` as a shell expands it: a value set where no shell runs (Claude Code's "env" setting) arrives
# as the literal `~/vault` (the CLI does the same, src/node/vault-arg.ts).
case $vault in
"~") vault=$HOME ;;
"~/"*) vault=$HOME/${vault#"~/"} ;;
esac
agent=${AGENT_MEMORY_AGENT:-claude}
event=$(cat)

sock="$vault/.agent-memory/hook.sock"
if [ -n "$vault" ] && [ "${AGENT_MEMORY_SERVER-}" != off ] && [ -S "$sock" ] &&
  command -v curl >/dev/null 2>&1; then
  set -- --data-urlencode "vault=$vault" --data-urlencode "agent=$agent" \
    --data-urlencode "cwd=$(pwd -P)" --data-urlencode "tz=${TZ-}"
  # The AGENT_MEMORY_* variables, as the CLI's launcher sends them (names only from `env`).
  for name in $(env | sed -n 's/^\(AGENT_MEMORY_[A-Za-z0-9_]*\)=.*/\1/p'); do
    eval "value=\${$name-}"
    set -- "$@" --data-urlencode "env=$name=$value"
  done
  out=$(printf '%s' "$event" | curl -sf --max-time 3 --unix-socket "$sock" "$@" \
    --data-urlencode "event@-" http://localhost/claude-code 2>/dev/null)
  status=$?
  if [ "$status" -eq 0 ]; then
    [ -n "$out" ] && printf '%s\n' "$out"
    exit 0
  fi
  # 22: the server answered and refused (the CLI may still ask it); 7: nobody listens (a socket
  # left by a killed server), so the CLI finds no server and starts one (docs/agents.md, "A server
  # started for you"); anything else (a stalled server) and the CLI runs on its own, so the hook
  # stays within Claude Code's timeout.
  [ "$status" -eq 22 ] || [ "$status" -eq 7 ] || export AGENT_MEMORY_SERVER=off
fi

if ! command -v agent-memory >/dev/null 2>&1; then
  echo "agent-memory: not on PATH; install it as docs/agents.md says (\"Claude Code: the plugin\")" >&2
  exit 0
fi
printf '%s' "$event" | agent-memory hook claude-code --vault "$vault" --agent "$agent"
exit 0
