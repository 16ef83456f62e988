import { AnthropicMessagesProvider } from './anthropicMessages';
import type { ModelConfig } from './config';
import { OpenAIChatProvider } from './openaiChat';
import type { ProviderOptions } from './openaiClient';
import { OpenAIResponsesProvider } from './openaiResponses';
import type { ModelProvider } from './provider';

/** The provider for the API the configuration names. */
export function createProvider(config: ModelConfig, options: ProviderOptions = {}): ModelProvider {
  switch (config.api) {
    case 'responses':
      return new OpenAIResponsesProvider(config, options);
    case 'chat':
      return new OpenAIChatProvider(config, options);
    case 'anthropic':
      return new AnthropicMessagesProvider(config, options);
  }
}
