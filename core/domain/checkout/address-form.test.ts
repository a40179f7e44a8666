import { describe, expect, it } from "vitest";
import { readAddress, staffAddressProblems, type FieldError } from "./address-form.ts";
import type { Address } from "./address.ts";

const form = (country: string, state: string, postcode: string) => ({
  billing_first_name: "Ada",
  billing_last_name: "Lovelace",
  billing_country: country,
  billing_address_1: "1 Way",
  billing_city: "Town",
  billing_state: state,
  billing_postcode: postcode,
  billing_phone: "555 123 4567",
  billing_email: "ada@example.com",
});

function read(country: string, state: string, postcode: string) {
  const errors: FieldError[] = [];
  const address = readAddress(form(country, state, postcode), "billing", errors);
  return { address, errors: errors.map((e) => e.html) };
}

describe("readAddress: per-country address rules", () => {
  it("Canada: provinces from the list (code or name), Canadian postal codes, Canadian labels", () => {
    expect(read("CA", "Ontario", "K1A 0B1")).toMatchObject({ address: { state: "ON", postcode: "K1A 0B1" }, errors: [] });
    expect(read("CA", "qc", "h2x 1y4").address.state).toBe("QC");
    const bad = read("CA", "Texas", "62701");
    expect(bad.errors[0]).toMatch(/^<strong>Billing Province<\/strong> is not valid\. Please enter one of the following: Alberta, British Columbia/);
    expect(bad.errors).toContain("<strong>Billing Postal code</strong> is not a valid postcode / ZIP.");
    expect(read("CA", "", "K1A 0B1").errors).toEqual(["<strong>Billing Province</strong> is a required field."]);
  });

  it("the US: a state from the list and a ZIP code", () => {
    expect(read("US", "IL", "62701-1234").errors).toEqual([]);
    expect(read("US", "IL", "6270").errors).toEqual(["<strong>Billing ZIP Code</strong> is not a valid postcode / ZIP."]);
  });

  it("Germany has no state field: whatever is posted for it is dropped; the postcode has five digits", () => {
    expect(read("DE", "Bavaria", "10115")).toMatchObject({ address: { state: "" }, errors: [] });
    expect(read("DE", "", "1011").errors).toEqual(["<strong>Billing Postcode</strong> is not a valid postcode / ZIP."]);
  });

  it("the UK: a free-text county, optional; UK postcodes", () => {
    expect(read("GB", "", "SW1A 1AA").errors).toEqual([]);
    expect(read("GB", "Kent", "12345").errors).toEqual(["<strong>Billing Postcode</strong> is not a valid postcode / ZIP."]);
  });
});

describe("staffAddressProblems: an address staff edit on an order", () => {
  const base: Address = {
    first_name: "Ada",
    last_name: "Lovelace",
    company: "",
    country: "US",
    address_1: "1 Main St",
    address_2: "",
    city: "Springfield",
    state: "IL",
    postcode: "62701",
    phone: "",
    email: "ada@example.com",
  };
  it("judges only the fields sent, and state and postcode again when the country changes", () => {
    expect(staffAddressProblems("billing", { ...base, postcode: "ABCDE" }, ["city"]).problems).toEqual({});
    expect(Object.keys(staffAddressProblems("billing", { ...base, postcode: "ABCDE" }, ["postcode"]).problems)).toEqual(["postcode"]);
    expect(Object.keys(staffAddressProblems("shipping", { ...base, country: "CA" }, ["country"]).problems).sort()).toEqual(["postcode", "state"]);
  });
  it("names each bad field and keeps a state's code", () => {
    expect(staffAddressProblems("billing", { ...base, email: "nope" }, ["email"]).problems.email).toMatch(/^billing\.email /);
    expect(staffAddressProblems("shipping", { ...base, country: "XX" }, ["country"]).problems.country).toMatch(/^shipping\.country /);
    expect(staffAddressProblems("shipping", { ...base, state: "illinois" }, ["state"]).address.state).toBe("IL");
    expect(staffAddressProblems("shipping", { ...base, country: "DE", state: "Bayern", postcode: "10115" }, ["country", "state"]).address.state).toBe("");
    expect(staffAddressProblems("billing", { ...base, email: "", postcode: "" }, ["email", "postcode"]).problems).toEqual({});
  });
});
