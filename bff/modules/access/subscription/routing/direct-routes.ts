/**
 * Split tunnelling (DESIGN §8): what goes direct, outside the tunnel, in every format
 * (Happ's routing profile, Mihomo rules, sing-box rule sets, Xray JSON routing). Customers
 * live in Russia and Kazakhstan: their own country's sites are reachable without the
 * tunnel, often only from a local address (banks, public services), and are faster direct.
 * Everything not listed goes through the tunnel. Edit this file only; the formats read it.
 */
export const directRoutes = {
  /**
   * Country top-level domains: every name under them goes direct, so services on them
   * (yandex.ru, mail.ru, ok.ru, gosuslugi.ru, sberbank.ru, tbank.ru, ozon.ru, avito.ru,
   * wildberries.ru, kaspi.kz …) need no entry of their own.
   */
  countryDomains: [
    "ru",
    "su",
    // .рф
    "xn--p1ai",
    "kz",
    // .қаз
    "xn--80ao21a",
  ],
  /** Russian and Kazakh services (and their CDNs) on other top-level domains. */
  serviceDomains: [
    "yandex.com",
    "yandex.net",
    "yandex.by",
    "yandex.uz",
    "yandex.com.tr",
    "yastatic.net",
    "yandexcloud.net",
    "vk.com",
    "vk.me",
    "userapi.com",
    "vkuser.net",
    "vk-cdn.net",
    "mycdn.me",
    "sberbank.com",
    "wbstatic.net",
    "avito.st",
    "2gis.com",
  ],
  /**
   * Countries whose addresses go direct where the client has a GeoIP database (Xray's
   * geoip.dat, Mihomo's, Happ's): lower case, as geoip.dat names them.
   */
  countries: ["ru", "kz"],
  /**
   * The local networks and loopback: never through the tunnel (a printer, a router's page).
   * sing-box matches only these, by address: it has no GeoIP database since 1.12.
   */
  privateNetworks: [
    "10.0.0.0/8",
    "100.64.0.0/10",
    "127.0.0.0/8",
    "169.254.0.0/16",
    "172.16.0.0/12",
    "192.168.0.0/16",
    "::1/128",
    "fc00::/7",
    "fe80::/10",
  ],
} as const;

/** Every domain suffix that goes direct. */
export const directDomains: readonly string[] = [
  ...directRoutes.countryDomains,
  ...directRoutes.serviceDomains,
];

export const isIpv6Network = (network: string) => network.includes(":");
