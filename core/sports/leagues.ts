/**
 * The simulator's leagues and (fictional, real-sounding) clubs. Kick-off windows
 * are in UTC hours and spread over the day so that some match is usually live.
 */

export interface LeagueDef {
  readonly slug: string;
  readonly name: string;
  readonly country: string;
  /** UTC kick-off times as minutes after midnight; a day uses a few of them. */
  readonly kickoffs: readonly number[];
  /** Knockout ties go to extra time and penalties when drawn. */
  readonly knockout?: boolean;
  readonly teams: readonly string[];
}

const hm = (h: number, m = 0): number => h * 60 + m;

export const DEFAULT_LEAGUES: readonly LeagueDef[] = [
  {
    slug: "premier-division",
    name: "Premier Division",
    country: "England",
    kickoffs: [hm(11, 30), hm(14), hm(14), hm(16, 30), hm(19), hm(19, 45)],
    teams: [
      "Ashford Rovers",
      "Kingsbridge United",
      "Harrowgate Town",
      "Millbrook Athletic",
      "Easton Wanderers",
      "Redcliffe City",
      "Thornbury Albion",
      "Whitmoor Forest",
    ],
  },
  {
    slug: "liga-primera",
    name: "Liga Primera",
    country: "Spain",
    kickoffs: [hm(12), hm(14, 15), hm(16, 30), hm(18, 30), hm(20)],
    teams: [
      "Real Castellón",
      "Atlético Montserrat",
      "CD Almenara",
      "Deportivo Sierra",
      "Racing Villalba",
      "UD Costa Blanca",
      "Sporting Olivar",
      "CF Torreviva",
    ],
  },
  {
    slug: "serie-oro",
    name: "Serie Oro",
    country: "Italy",
    kickoffs: [hm(11, 30), hm(14), hm(17), hm(19, 45)],
    teams: ["AC Montevento", "Sporting Lucerna", "US Valtorre", "FC Castelfiore", "Virtus Mareblu", "AS Pietralba", "Calcio Aurelia", "Unione Borgosole"],
  },
  {
    slug: "erste-liga",
    name: "Erste Liga",
    country: "Germany",
    kickoffs: [hm(13, 30), hm(13, 30), hm(16, 30), hm(18, 30)],
    teams: ["FC Rheinfeld", "SV Grünwald", "Borussia Eichstadt", "VfB Lindenhof", "Eintracht Bergheim", "TSV Hafenstadt", "Fortuna Waldau", "SC Nordkirchen"],
  },
  {
    slug: "ligue-elite",
    name: "Ligue Élite",
    country: "France",
    kickoffs: [hm(12), hm(14), hm(16), hm(19, 45)],
    teams: ["Olympique Valmont", "AS Belrive", "FC Saint-Aubin", "Stade Lorvagne", "Racing Mireval", "US Clairmont", "En Avant Portbleu", "Girondins Lacôte"],
  },
  {
    slug: "eredivisie-plus",
    name: "Topdivisie",
    country: "Netherlands",
    kickoffs: [hm(11, 15), hm(13, 30), hm(15, 45), hm(18)],
    teams: ["Ajax Veendam", "FC Dijkstad", "Sparta Hoorndam", "Vitesse Beekveld", "Go Ahead Zwolde", "Willem Brugge", "NEC Marken", "PSV Heerhoven"],
  },
  {
    slug: "brasileirao-a",
    name: "Série A",
    country: "Brazil",
    kickoffs: [hm(19), hm(21, 30), hm(22), hm(23, 30)],
    teams: [
      "Atlético Serrano",
      "Esporte Clube Maré",
      "Fluminense do Vale",
      "Grêmio Litoral",
      "Palmeiras do Norte",
      "Santos Baía",
      "Internacional Cerrado",
      "Vasco Ribeira",
    ],
  },
  {
    slug: "j-premier",
    name: "J Premier",
    country: "Japan",
    kickoffs: [hm(5), hm(6), hm(7), hm(9), hm(10)],
    teams: ["Kawasora FC", "Yokohama Minato", "Sanuki Blaze", "Hokuto Stars", "Nagisa United", "Tsubame Kyoto", "Akatsuki Sendai", "Shiokaze Kobe"],
  },
  {
    slug: "continental-cup",
    name: "Continental Cup",
    country: "Europe",
    kickoffs: [hm(17, 45), hm(20), hm(20)],
    knockout: true,
    teams: ["Dynamo Varlinsk", "Sporting Alvorada", "Celtic Dunmore", "Red Star Kovar", "FC Nordhavn", "Olympiacos Kalamos", "Galata Boğaz", "Slavia Dubno"],
  },
];

/** URL-safe slug: lower case, accents dropped, words joined by '-'. */
export function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/ğ/gi, "g")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

export function teamImg(teamSlug: string): string {
  return `/media/teams/${teamSlug}.svg`;
}

export function leagueImg(leagueSlug: string): string {
  return `/media/leagues/${leagueSlug}.svg`;
}
