import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, jsonSchema, type ToolSet, tool } from "ai";
import { z } from "zod";

/**
 * The language-model port: a prompt and tool definitions (JSON Schema) in, tool calls out. Callers never trust what
 * comes back: every call's arguments are validated again with the zod schema the tool was made from.
 */
export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments (for example `z.toJSONSchema(schema)`). */
  inputSchema: Record<string, unknown>;
}

export interface ToolCall {
  name: string;
  /** Unvalidated arguments as the model produced them. */
  args: unknown;
}

export interface CompletionRequest {
  /** Instructions the caller controls; never user data. */
  system: string;
  /** The user's request (data, not instructions). */
  prompt: string;
  tools: readonly ToolDefinition[];
  /** The user's language (en, ua, pl, fr, es), a hint for providers that parse text themselves. */
  locale?: string;
  signal?: AbortSignal;
}

export interface CompletionResult {
  toolCalls: ToolCall[];
  /** Free text the model answered with instead of (or beside) tool calls. */
  text: string;
  /** Which provider answered: `embedded` or the configured model's name. */
  provider: string;
}

export interface LlmProvider {
  readonly name: string;
  complete(request: CompletionRequest): Promise<CompletionResult>;
}

/** Environment settings of the OpenAI-compatible provider; all unset → the caller's embedded default. */
export const LlmEnv = z.object({
  LLM_BASE_URL: z.url().optional(),
  LLM_API_KEY: z.string().min(1).optional(),
  LLM_MODEL: z.string().min(1).optional(),
  /** Milliseconds before a model call is abandoned (and the embedded default answers instead). */
  LLM_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(20_000),
});
export type LlmEnv = z.infer<typeof LlmEnv>;

export interface OpenAiCompatibleOptions {
  baseUrl: string;
  model: string;
  apiKey?: string;
  timeoutMs?: number;
  /** For tests and proxies. */
  fetch?: typeof fetch;
}

/** Any OpenAI-compatible endpoint (Ollama, vLLM, llama.cpp server, hosted) through the Vercel AI SDK, tool calling. */
export function openAiCompatibleProvider(options: OpenAiCompatibleOptions): LlmProvider {
  const provider = createOpenAICompatible({
    name: "llm",
    baseURL: options.baseUrl.replace(/\/+$/, ""),
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const model = provider.chatModel(options.model);
  const timeoutMs = options.timeoutMs ?? 20_000;
  return {
    name: options.model,
    async complete(request) {
      const tools: ToolSet = {};
      for (const t of request.tools) {
        // No `execute`: the SDK hands the calls back instead of running anything.
        tools[t.name] = tool({ description: t.description, inputSchema: jsonSchema(t.inputSchema as never) });
      }
      const timeout = AbortSignal.timeout(timeoutMs);
      const result = await generateText({
        model,
        system: request.system,
        prompt: request.prompt,
        tools,
        toolChoice: request.tools.length > 0 ? "auto" : "none",
        temperature: 0,
        maxRetries: 0, // the embedded fallback answers instead of waiting on retries
        abortSignal: request.signal ? AbortSignal.any([request.signal, timeout]) : timeout,
      });
      return {
        toolCalls: result.toolCalls.map((c) => ({ name: c.toolName, args: c.input })),
        text: result.text,
        provider: options.model,
      };
    },
  };
}

/** Asks `primary`; if it fails (unreachable, timeout, bad answer) the embedded `fallback` answers, so the product works. */
export function withFallback(
  primary: LlmProvider,
  fallback: LlmProvider,
  onError?: (error: unknown) => void,
): LlmProvider {
  return {
    name: primary.name,
    async complete(request) {
      try {
        return await primary.complete(request);
      } catch (error) {
        onError?.(error);
        return fallback.complete(request);
      }
    },
  };
}

/**
 * The provider the environment asks for: `LLM_BASE_URL` + `LLM_MODEL` → that endpoint (falling back to `embedded`
 * when it fails); nothing configured → `embedded`, which needs no model and no network.
 */
export function providerFromEnv(
  embedded: LlmProvider,
  env: NodeJS.ProcessEnv = process.env,
  onError?: (error: unknown) => void,
): LlmProvider {
  const parsed = LlmEnv.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`invalid LLM configuration: ${lines}`);
  }
  const c = parsed.data;
  if (!c.LLM_BASE_URL || !c.LLM_MODEL) return embedded;
  const remote = openAiCompatibleProvider({
    baseUrl: c.LLM_BASE_URL,
    model: c.LLM_MODEL,
    timeoutMs: c.LLM_TIMEOUT_MS,
    ...(c.LLM_API_KEY ? { apiKey: c.LLM_API_KEY } : {}),
  });
  return withFallback(remote, embedded, onError);
}
