import type { ModelConfig } from './config';
import { OpenAIChatProvider } from './openaiChat';
import type { ProviderOptions } from './openaiClient';
import { OpenAIResponsesProvider } from './openaiResponses';
import type { ModelProvider, ModelRequest } from './provider';

/** The provider for the API the configuration names. */
export function createProvider(config: ModelConfig, options: ProviderOptions = {}): ModelProvider {
  switch (config.api) {
    case 'responses':
      return new OpenAIResponsesProvider(config, options);
    case 'chat':
      return new OpenAIChatProvider(config, options);
    case 'anthropic':
      return loadedOnFirstRequest(
        'anthropic',
        async () => new (await import('./anthropicMessages')).AnthropicMessagesProvider(config, options),
      );
  }
}

/**
 * A provider whose module (and SDK) loads with its first request: the Anthropic SDK takes over a
 * hundred milliseconds to load, which a run on another API, or `tether serve` at start, never needs.
 */
function loadedOnFirstRequest(api: ModelProvider['api'], load: () => Promise<ModelProvider>): ModelProvider {
  let provider: Promise<ModelProvider> | undefined;
  return {
    api,
    async *stream(request: ModelRequest) {
      provider ??= load();
      yield* (await provider).stream(request);
    },
  };
}
