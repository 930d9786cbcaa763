/**
 * Numeric state ids used by `stateId` in addresses. The table is fixed: ids never change meaning (clients store
 * them). 1–51 are the states and DC in alphabetical order of name, then territories, then military "states".
 * Published at GET /pay-api/v1/configurations/states and in docs/reference-data.md.
 */
export interface State {
  id: number;
  code: string;
  name: string;
  countryId: number;
}

export interface Country {
  id: number;
  isoCode: string;
  name: string;
}

export const UNITED_STATES: Country = { id: 1, isoCode: 'US', name: 'United States' };
export const COUNTRIES: readonly Country[] = [UNITED_STATES];

const US_STATES: Array<[string, string]> = [
  ['AL', 'Alabama'],
  ['AK', 'Alaska'],
  ['AZ', 'Arizona'],
  ['AR', 'Arkansas'],
  ['CA', 'California'],
  ['CO', 'Colorado'],
  ['CT', 'Connecticut'],
  ['DE', 'Delaware'],
  ['DC', 'District of Columbia'],
  ['FL', 'Florida'],
  ['GA', 'Georgia'],
  ['HI', 'Hawaii'],
  ['ID', 'Idaho'],
  ['IL', 'Illinois'],
  ['IN', 'Indiana'],
  ['IA', 'Iowa'],
  ['KS', 'Kansas'],
  ['KY', 'Kentucky'],
  ['LA', 'Louisiana'],
  ['ME', 'Maine'],
  ['MD', 'Maryland'],
  ['MA', 'Massachusetts'],
  ['MI', 'Michigan'],
  ['MN', 'Minnesota'],
  ['MS', 'Mississippi'],
  ['MO', 'Missouri'],
  ['MT', 'Montana'],
  ['NE', 'Nebraska'],
  ['NV', 'Nevada'],
  ['NH', 'New Hampshire'],
  ['NJ', 'New Jersey'],
  ['NM', 'New Mexico'],
  ['NY', 'New York'],
  ['NC', 'North Carolina'],
  ['ND', 'North Dakota'],
  ['OH', 'Ohio'],
  ['OK', 'Oklahoma'],
  ['OR', 'Oregon'],
  ['PA', 'Pennsylvania'],
  ['RI', 'Rhode Island'],
  ['SC', 'South Carolina'],
  ['SD', 'South Dakota'],
  ['TN', 'Tennessee'],
  ['TX', 'Texas'],
  ['UT', 'Utah'],
  ['VT', 'Vermont'],
  ['VA', 'Virginia'],
  ['WA', 'Washington'],
  ['WV', 'West Virginia'],
  ['WI', 'Wisconsin'],
  ['WY', 'Wyoming'],
  ['AS', 'American Samoa'],
  ['GU', 'Guam'],
  ['MP', 'Northern Mariana Islands'],
  ['PR', 'Puerto Rico'],
  ['VI', 'U.S. Virgin Islands'],
  ['AA', 'Armed Forces Americas'],
  ['AE', 'Armed Forces Europe'],
  ['AP', 'Armed Forces Pacific'],
];

export const STATES: readonly State[] = US_STATES.map(([code, name], index) => ({
  id: index + 1,
  code,
  name,
  countryId: UNITED_STATES.id,
}));

const byId = new Map(STATES.map((s) => [s.id, s]));
const byCode = new Map(STATES.map((s) => [s.code, s]));
const byName = new Map(STATES.map((s) => [s.name.toLowerCase(), s]));

export function stateById(id: number): State | undefined {
  return byId.get(id);
}

export function stateByCode(code: string): State | undefined {
  return byCode.get(code.trim().toUpperCase());
}

export function stateByName(name: string): State | undefined {
  return byName.get(name.trim().toLowerCase());
}

export function countryById(id: number): Country | undefined {
  return COUNTRIES.find((c) => c.id === id);
}

export function countryByCode(code: string): Country | undefined {
  const wanted = code.trim().toUpperCase();
  return COUNTRIES.find((c) => c.isoCode === wanted || (wanted === 'USA' && c.id === UNITED_STATES.id));
}
