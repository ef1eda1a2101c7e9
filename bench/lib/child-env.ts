/**
 * The environment a benchmark gives the processes it starts: this one's, without the language
 * model's settings (`AGENT_MEMORY_LLM_*`, `OPENAI_*`), so a benchmark never calls a model.
 */
export function childEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !/^(AGENT_MEMORY_LLM_|OPENAI_)/.test(k)) out[k] = v;
  return out;
}
