import type { RuleView, SettingsRuleChange, SettingsRules, SettingsUpdate, SettingsView } from '../../../shared/contract';
import type { ConnectionTestRequest, ConnectionTestResult, LocalServerView } from '../../../shared/modelSetup';
import type { GetState, SetState, StoreDeps } from './appState';
import type { LoadStatus } from './sessionsSlice';
import { errorMessage } from '../lib/errorMessage';

/** The settings screen: model and permission defaults, and the rules "Allow always" remembered. */
export interface SettingsSlice {
  settings: SettingsView | null;
  settingsStatus: LoadStatus;
  settingsError?: string;
  rules: RuleView[];
  rulesStatus: LoadStatus;
  /** The allow, ask and deny rules of the person's settings.json; null until loaded (or when it could not be). */
  settingsRules: SettingsRules | null;
  settingsRulesError?: string;
  loadSettingsRules(): Promise<void>;
  /** Adds or takes out a rule of settings.json; resolves with main's refusal (a rule it cannot read, say), or null once it is done. */
  changeSettingsRule(change: 'add' | 'remove', rule: SettingsRuleChange): Promise<string | null>;
  loadSettings(): Promise<void>;
  /** Returns true once the core has accepted the change; the error is kept for the form otherwise. */
  saveSettings(update: SettingsUpdate): Promise<boolean>;
  loadRules(): Promise<void>;
  /** "Test connection": main asks the server for its models. Null when the request itself could not be made (said in a toast). */
  testConnection(request: ConnectionTestRequest): Promise<ConnectionTestResult | null>;
  /** Ollama and LM Studio running on this machine; none when the search fails. */
  findLocalServers(): Promise<LocalServerView[]>;
  revokeRule(ruleId: string): Promise<void>;
}

export function createSettingsSlice(deps: StoreDeps, set: SetState, get: GetState): SettingsSlice {
  const { api } = deps;
  return {
    settings: null,
    settingsStatus: 'idle',
    rules: [],
    rulesStatus: 'idle',
    settingsRules: null,

    async loadSettingsRules() {
      try {
        set({ settingsRules: await api.request('settingsRules:list', {}), settingsRulesError: undefined });
      } catch (error) {
        set({ settingsRulesError: errorMessage(error) });
      }
    },

    async changeSettingsRule(change, rule) {
      try {
        const settingsRules = await api.request(change === 'add' ? 'settingsRules:add' : 'settingsRules:remove', rule);
        set({ settingsRules, settingsRulesError: undefined });
        return null;
      } catch (error) {
        return errorMessage(error);
      }
    },

    async loadSettings() {
      if (get().settingsStatus !== 'ready') set({ settingsStatus: 'loading' });
      try {
        const settings = await api.request('settings:get', {});
        set({ settings, settingsStatus: 'ready', settingsError: undefined });
      } catch (error) {
        set({ settingsStatus: 'error', settingsError: errorMessage(error) });
      }
    },

    async saveSettings(update) {
      try {
        const settings = await api.request('settings:update', update);
        set({ settings, settingsStatus: 'ready', settingsError: undefined });
        get().notify('Settings saved.', 'info');
        return true;
      } catch (error) {
        set({ settingsError: errorMessage(error) });
        get().notify(`Could not save the settings: ${errorMessage(error)}`);
        return false;
      }
    },

    async testConnection(request) {
      try {
        return await api.request('model:test', request);
      } catch (error) {
        get().notify(`Could not test the connection: ${errorMessage(error)}`);
        return null;
      }
    },

    async findLocalServers() {
      try {
        return await api.request('model:findLocal', {});
      } catch {
        // Finding local servers is a courtesy: the providers are offered either way.
        return [];
      }
    },

    async loadRules() {
      if (get().rulesStatus !== 'ready') set({ rulesStatus: 'loading' });
      try {
        const rules = await api.request('rules:list', {});
        set({ rules, rulesStatus: 'ready' });
      } catch (error) {
        set({ rulesStatus: 'error' });
        get().notify(`Could not list the remembered rules: ${errorMessage(error)}`);
      }
    },

    async revokeRule(ruleId) {
      try {
        await api.request('rules:revoke', { ruleId });
        set((state) => ({ rules: state.rules.filter((rule) => rule.id !== ruleId) }));
      } catch (error) {
        get().notify(`Could not revoke the rule: ${errorMessage(error)}`);
      }
    },
  };
}
