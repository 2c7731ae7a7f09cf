import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import {
  CONFIGURATION_DOC,
  renderSettingsTable,
  withSettingsTable,
} from '../../scripts/configuration-doc.ts';
import { loadConfig, SETTINGS } from '../src/config.ts';

describe('configuration: the settings table and its documentation', () => {
  it('docs/configuration.md shows exactly the settings table (run `make docs` after changing server/src/config.ts)', () => {
    const page = readFileSync(CONFIGURATION_DOC, 'utf8');
    expect(page, 'docs/configuration.md').to.equal(withSettingsTable(page, renderSettingsTable()));
  });

  it('each variable is named once, and every setting has a value when nothing is set', () => {
    const names = Object.values(SETTINGS).map((setting) => setting.env);
    expect(new Set(names).size).to.equal(names.length);
    const config = loadConfig({});
    expect(Object.keys(config)).to.deep.equal(Object.keys(SETTINGS));
  });
});
