"""The goal reading (agent/goal/): one table of wordings — imperative, descriptive, terse,
polite, questions — over one small imagined workspace, each with the reading it must give.
None of these is a benchmark goal; they are written to vary the wording, not to match it."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from agentls.agent.goal import read_goal


@dataclass
class Facts:
    paths: list[str] = field(
        default_factory=lambda: [
            "shop/cart.py", "shop/tax.py", "settings.py", "server/app.py", "util/strings.py",
            "tests/test_cart.py", "README.md", ".docs/instructions.md", "geo.py", "wordcount.py",
        ]
    )  # fmt: skip
    complete: bool = True
    defs: dict[str, list[str]] = field(
        default_factory=lambda: {
            "Cart": ["shop/cart.py"], "add_item": ["shop/cart.py"], "cart_total": ["shop/cart.py"],
            "vat": ["shop/tax.py"], "VAT_RATE": ["shop/tax.py"], "MAX_CONNECTIONS": ["settings.py"],
            "handle": ["server/app.py"], "Clnt": ["server/app.py"], "shorten": ["util/strings.py"],
            "perimeter": ["geo.py"], "count_words": ["wordcount.py"], "test_total": ["tests/test_cart.py"],
        }
    )  # fmt: skip
    words: set[str] = field(default_factory=lambda: {"quantity", "verbose", "timeout_s"})

    def defined(self, name: str) -> list[str]:
        return self.defs.get(name, [])

    def used(self, name: str) -> bool:
        return name in self.defs or name in self.words

    def stub(self, name: str) -> bool:
        return name == "count_words"  # its body is `pass`

    def mentioning(self, name: str) -> list[str]:
        return ["tests/test_cart.py"] if name in ("cart_total", "cart", "Cart") else []


def read(goal: str, may_write: bool = True):  # type: ignore[no-untyped-def]
    return read_goal(goal, Facts(), may_write)


KINDS = [
    # questions and looks
    ("How many arguments does add_item take?", "answer"),
    ("where's vat defined", "answer"),
    ("Does handle ever return None?", "answer"),
    ("Walk me through what shop/cart.py does.", "answer"),
    ("Summarise geo.py for me", "answer"),
    ("Look over util/strings.py and tell me about any bugs you spot, but leave the code alone.", "answer"),
    ("Which modules import shop/tax.py?", "answer"),
    ("Why does cart_total crash on an empty cart?", "answer"),
    ("Give me an overview of the server package; no edits please.", "answer"),
    ("Explain what the selected code in geo.py (lines 3-4) does. Read it, then finish with the explanation.", "answer"),
    ("Read shop/tax.py and end by saying what vat returns", "answer"),
    # changes, however worded
    ("Could you raise MAX_CONNECTIONS in settings.py to 250?", "change"),
    ("MAX_CONNECTIONS should be 250", "change"),
    ("Set VAT_RATE to 0.21 in shop/tax.py", "change"),
    ("please make perimeter round its result to two decimals", "change"),
    ("shorten breaks on an empty string, it should give back an empty string then", "change"),
    ("cart_total is off by one", "change"),
    ("Strip the stray print statement out of handle", "remove"),
    ("get rid of the commented-out code in geo.py", "remove"),
    ("Delete the verbose flag from server/app.py", "remove"),
    # renames
    ("Rename Clnt to Client across the code base.", "rename"),
    ("Clnt ought to be named Client", "rename"),
    ("call Clnt Client everywhere", "rename"),
    ("cart_total → total_price", "rename"),
    # additions and new files
    ("shop/tax.py needs a net_price(gross) helper", "add"),
    ("Introduce a class Discount in shop/cart.py with a percent field.", "add"),
    ("Add a function median(values) to util/strings.py", "add"),
    ("create a new file docs/usage.md explaining how to run the server", "new_file"),
    ("implment a median(values) helper in util/strings.py", "add"),  # a misspelt verb
    ("pls renmae Clnt to Client", "rename"),
    # documentation and types
    ("Document vat with a docstring.", "docstring"),
    ("Explain in the docstring of vat what rate it applies", "docstring"),
    ("Give geo.py a module docstring describing its purpose.", "docstring"),
    # "is it possible to …?", "I want …", "I'd like it removed", a wish for something new
    ("Is it possible to bump VAT_RATE in shop/tax.py to 0.25?", "change"),
    ("I want the vat function in shop/tax.py to have a docstring.", "docstring"),
    ("The print in handle is leftover debugging. I'd like it removed.", "remove"),
    ("I'd like a net_price(gross) helper in shop/tax.py", "add"),
    ("I want the failing test in tests/test_cart.py to pass.", "fix_tests"),
    ("add_item's quantity should be type-hinted as int", "hints"),
    # an order with no verb names what to make
    ("module docstring at the top of geo.py saying what it is for", "docstring"),
    ("new file tests/test_strings.py with a pytest test for shorten", "tests"),
    ("int hint on the quantity parameter of add_item", "hints"),
    # looks, however worded
    ("I want an explanation of what geo.py does; no files should be changed.", "answer"),
    ("I need an overview of server/app.py", "answer"),
    ("util/strings.py needs a review for bugs. Anything you find should only be reported, with nothing edited.", "answer"),
    # indirect politeness, tickets and commit messages
    ("I was wondering if you could add a docstring to vat in shop/tax.py?", "docstring"),
    ("Any chance you could rename Clnt to Client everywhere?", "rename"),
    ("Do you think you could fix shorten in util/strings.py? It drops the last character.", "change"),
    ("Mind removing the verbose flag from server/app.py?", "remove"),
    ("It would be great if shorten returned an empty string for None.", "change"),
    ("chore(settings): set MAX_CONNECTIONS in settings.py to 250", "change"),
    ("Ticket #88 – add a net_price(gross) helper to shop/tax.py", "add"),
    ("BUG: cart_total in shop/cart.py counts the last item twice", "change"),
    ("docs(geo): add a docstring to perimeter", "docstring"),
    ("We need pytest tests for shorten in a new file tests/test_strings.py: check an empty string and a long one.", "tests"),
    ("Check whether the tests pass.", "answer"),
    # terse and code-heavy
    ("In shop/tax.py please change VAT_RATE to 0.25", "change"),
    ("New `tests/test_strings.py`: pytest test for `shorten`", "tests"),
    ("`geo.py`: module docstring at top describing its purpose", "docstring"),
    ("`shop/tax.py`: `vat(amount: float) -> float`", "hints"),
    ("`shop/cart.py`: add `net_total(items)` returning the sum", "add"),
    # a request after a dash, and "would you mind …ing"
    ("geo.py should have a docstring at the top — could you add one?", "docstring"),
    ("would you mind putting a docstring on vat?", "docstring"),
    ("Annotate count_words: it takes a str and returns an int.", "hints"),
    # tests
    ("Write unit tests for shorten in a new file tests/test_strings.py", "tests"),
    ("shorten has no coverage; it deserves a tests/test_strings.py of its own", "tests"),
    ("test_total fails, please repair cart_total so it passes (the test is right)", "fix_tests"),
    ("Get the failing tests green again without touching them.", "fix_tests"),
    ("Get tests/test_cart.py passing by correcting cart_total.", "fix_tests"),
    # implementing from a description
    ("Implement count_words as described in the instructions.", "implement"),
    ("Fill in the body of perimeter so the tests pass.", "implement"),
    ("Write count_words in wordcount.py", "implement"),
    ("Finish count_words in wordcount.py, then finish with what you did.", "implement"),  # a stub: its body is `pass`
]


@pytest.mark.parametrize(("goal", "kind"), KINDS)
def test_every_wording_gets_its_kind_of_job(goal: str, kind: str) -> None:
    reading = read(goal)
    assert reading.kind == kind, (goal, reading)
    assert reading.wants_change == (kind != "answer")


def test_a_run_that_may_not_write_reads_every_goal_as_an_answer() -> None:
    reading = read("Rename Clnt to Client", may_write=False)
    assert reading.kind == "answer" and not reading.wants_change


@pytest.mark.parametrize(
    ("goal", "values"),
    [
        ("Could you raise MAX_CONNECTIONS in settings.py to 250?", ["250"]),
        ("change the greeting from 'Hi' to 'Hello there'", ["Hello there"]),
        ("VAT_RATE = 0.21 please", ["0.21"]),
        ("Make shorten return None when the text is empty", ["None"]),
        ("timeout_s: 30 → 45", ["45"]),
        ("Use 8 spaces instead of 4", ["8"]),
        ("swap the word Hello for Welcome in server/app.py", ["Welcome"]),
        ("handle has timeout_s=30 by default; it needs to be timeout_s=45", ["45"]),  # what it has now is no value
        ('the banner should say "Hi, <user>!" rather than "Hello"', ["Hi"]),  # a placeholder: its fixed piece
        ("shorten should give back None for an empty string", ["None"]),
        ("make handle cope with an empty body by returning None", ["None"]),
        (
            "vat(100) returns 19 instead of 21, it should use VAT_RATE",
            ["21"],
        ),  # what it does, then what is wanted
        ("vat(100) should return 21 instead of 19", ["21"]),
        ("bump the package version to 2.0.1", ["2.0.1"]),
        ("Set the log level to 'debug' in server/app.py", ["debug"]),
        ("handle should not crash when the body is 0 bytes", []),
        ("Rename Clnt to Client", []),
        # what the code does now, said apart, is no value
        ("Right now handle defaults timeout_s to 30. I'd like that default to be 45.", ["45"]),
        ("handle currently defaults timeout_s to 30", ["30"]),  # the only value there is
        # a word set against another
        ("greeting in server/app.py: Hello -> Welcome", ["Welcome"]),
        ("The greeting in server/app.py should be Welcome, not Hello.", ["Welcome"]),
        ("shorten: return None when the text is empty instead of raising", ["None"]),
        ("does shorten return None for an empty text?", []),
        # quoted code that sets a value; "make it 45"
        ("`settings.py`: `MAX_CONNECTIONS = 250`", ["250"]),
        ("`server/app.py` `handle`: `timeout_s=30` -> `timeout_s=45`", ["45"]),
        ("In server/app.py handle have timeout_s default 30, please make it 45.", ["45"]),
        # what the code does now, however worded, is no value; an input case neither
        ("Function perimeter in geo.py return 0 for squares, please fix it.", []),
        ("Why does perimeter say 0 for a square? Fix it.", []),
        ("Calling vat with amount = 0 crashes. Make vat return 0.0 when amount is 0.", ["0.0"]),
        ("server/app.py should greet with Welcome instead of Hello.", ["Welcome"]),  # "with" alone is no condition
        ("greeting in server/app.py: change the word Hello to Welcome", ["Welcome"]),
        ("It would be great if shorten returned None for an empty string", ["None"]),
        ("In server/app.py, swap the greeting word Hello for Welcome, then tell me what changed.", ["Welcome"]),
    ],
)
def test_the_values_a_change_must_bring_in(goal: str, values: list[str]) -> None:
    assert read(goal).values == values


@pytest.mark.parametrize(
    ("goal", "rename"),
    [
        ("Rename Clnt to Client across the code base.", ("Clnt", "Client")),
        ("Clnt ought to be named Client", ("Clnt", "Client")),
        ("please call Clnt Client from now on", ("Clnt", "Client")),
        ("change the name of cart_total to total_price", ("cart_total", "total_price")),
        ("Clnt has to be renamed to Client in every module", ("Clnt", "Client")),
        ("Set VAT_RATE to 0.21", None),
        ("Rename Ghost to Spirit", None),  # the workspace has no Ghost
        # an aside between the old name and the new one
        ("could you rename our Clnt helper class (the one that wraps requests) to Client?", ("Clnt", "Client")),
        # the old name in another sentence: the one name the goal mentions
        ("Clnt is a terrible name. Rename the class to Client everywhere.", ("Clnt", "Client")),
        ("Clnt and Cart are badly named. Rename the class to Client.", None),  # which one?
        ("Clnt is used everywhere, but I'd prefer the name Client. Please rename it.", ("Clnt", "Client")),
    ],
)
def test_a_rename_is_read_whatever_its_wording(goal: str, rename: tuple[str, str] | None) -> None:
    assert read(goal).rename == rename


def test_named_files_come_from_paths_file_names_and_the_names_they_define() -> None:
    assert read("Fix cart_total").files == ["shop/cart.py"]
    assert read("in tax.py, bump VAT_RATE to 0.25").files == ["shop/tax.py"]
    assert read("Update server/app.py so handle logs each request").files == ["server/app.py"]
    # a module by its name next to the word "module"
    assert read("The wordcount module needs a docstring at the top").files == ["wordcount.py"]
    assert read("give module geo a header docstring").files == ["geo.py"]
    assert read("The os module has no docstring").files == []  # not the workspace's


def test_a_file_the_goal_makes_is_new_and_one_it_presumes_is_missing() -> None:
    new = read("Add a function net_price(gross) to shop/tax.py and a test for it in tests/test_tax.py")
    assert new.kind == "add" and new.also_tests
    assert new.new_files == ["tests/test_tax.py"] and new.missing_files == []
    assert "net_price" in new.new_names and new.presumed == []
    gone = read("Add a docstring to connect in db.py")
    assert gone.missing_files == ["db.py"] and gone.new_files == []
    assert gone.kind == "docstring"


def test_a_name_the_goal_presumes_is_unknown_and_one_it_makes_is_new() -> None:
    assert read("Fix the rounding bug in compute_vat").presumed == ["compute_vat"]
    assert read("Add a compute_vat(amount) function to shop/tax.py").presumed == []
    # an English verb after a kind word is no name ("the parameters taken by …")
    assert read("The number of parameters taken by add_item - what is it?").presumed == []
    assert read("The default of the handle function needs to be 45").presumed == []
    # quoted words a typo goal fixes, and words set against each other, are text, not code
    assert read("`server/app.py`: fix typo `recieve`").presumed == []
    assert read("`server/app.py`: `Hello` -> `Welcome`").presumed == []
    assert read("Fix `recieve_order` in server/app.py").presumed == ["recieve_order"]
    # a commit message's scope is no name
    assert read("chore(settings): set MAX_CONNECTIONS to 250").presumed == []
    # a dotted name is known when the workspace defines its last part
    dotted = read("can you write a pytest test for tax.vat? put it in tests/test_tax.py")
    assert dotted.presumed == [] and dotted.kind == "tests" and "shop/tax.py" in dotted.files


@pytest.mark.parametrize(
    ("goal", "protected", "read_only"),
    [
        ("Fix cart_total so test_total passes, without changing the tests.", ["tests"], False),
        ("repair shorten; don't touch tests/test_cart.py", ["tests/test_cart.py"], False),
        ("Explain handle. Do not modify any files.", [], True),
        ("Only report the problems you find in geo.py.", [], True),
        ("Get tests/test_cart.py green by fixing cart_total; the tests themselves may not be edited.", ["tests"], False),
        ("shorten is wrong. tests/test_cart.py must not be modified.", ["tests/test_cart.py"], False),
        ("make tests/test_cart.py pass; the test itself has to stay unchanged", ["tests"], False),
        ("repair cart_total in shop/cart.py, not the tests", ["tests"], False),
        ("fix shorten, but not util/strings.py's callers", [], False),
        ("Fix cart_total; the tests must be left unchanged.", ["tests"], False),
        ("Repair cart_total so tests/test_cart.py passes, with no changes to the test.", ["tests"], False),
        ("Fix cart_total. The test shouldn't be modified.", ["tests"], False),
        ("Fix cart_total; tests/test_cart.py must be changed too.", [], False),  # changed, not kept
        ("Explain shorten - no changes to the code.", [], True),
        ("Fix cart_total so the tests pass, but no change the tests.", ["tests"], False),
        ("fix cart_total; the test you must not change", ["tests"], False),
        ("`cart_total` fails its test: fix it, test unchanged", ["tests"], False),
        ("fix(cart): cart_total breaks tests/test_cart.py; make the tests pass without changing them", ["tests"], False),
        ("Let's fix cart_total. We can't change the tests.", ["tests"], False),
    ],
)
def test_what_the_goal_rules_out(goal: str, protected: list[str], read_only: bool) -> None:
    reading = read(goal)
    assert reading.protected == protected
    assert reading.intent.read_only == read_only
    assert reading.is_protected("tests/test_cart.py") == bool(protected)


def test_a_goal_about_tests_passing_makes_the_tests_matter_and_points_at_the_spec() -> None:
    reading = read("Implement count_words as described in the instructions.")
    assert reading.tests_matter
    assert reading.specs == [".docs/instructions.md"]
    assert not read("Set VAT_RATE to 0.21").tests_matter
    # the numbers a failing test's report quotes are the failure, not values to bring in
    failing = read(
        "tests/test_cart.py fails: cart_total([2, 3]) gives 6 instead of 5. fix shop/cart.py"
    )
    assert failing.kind == "fix_tests" and failing.values == []


def test_a_job_the_tests_decide_knows_its_test_files() -> None:
    assert read("cart_total fails its test; repair it").tests == ["tests/test_cart.py"]
    assert read("Set VAT_RATE to 0.21").tests == []


@pytest.mark.parametrize(
    ("goal", "conditional"),
    [
        ("shorten should return an empty string when given None", True),
        ("vat(0) crashes, it should give 0 then", True),  # a call with literal arguments: the failing case
        ("Add a net_price(gross) helper to shop/tax.py", False),  # a signature, not a case
        ("Set VAT_RATE to 0.21", False),
    ],
)
def test_a_goal_about_some_inputs_only_is_conditional(goal: str, conditional: bool) -> None:
    assert read(goal).conditional is conditional


def test_a_goal_that_shows_neither_a_change_nor_a_look_is_not_clear() -> None:
    reading = read("shop/cart.py")
    assert not reading.clear and reading.kind == "answer"
