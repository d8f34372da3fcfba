"""Trades and professions a person is: the nouns "I'm a ..." and "works as a ..." name as a
job title (a title of several words the parser misreads is joined first, :mod:`.titles`).

Kept apart from the rules as data: a list that grows with every trial ("solicitor",
"brewer", "sommelier") without touching any rule.
"""

from __future__ import annotations

OCCUPATIONS = frozenset({
    "engineer", "developer", "programmer", "teacher", "nurse", "doctor", "physician", "lawyer",
    "attorney", "designer", "manager", "scientist", "analyst", "consultant", "architect",
    "accountant", "writer", "author", "artist", "painter", "musician", "chef", "researcher",
    "professor", "dentist", "pharmacist", "therapist", "counselor", "counsellor", "psychologist",
    "psychiatrist", "photographer", "journalist", "editor", "firefighter", "officer", "pilot",
    "mechanic", "electrician", "plumber", "carpenter", "farmer", "salesperson", "entrepreneur",
    "founder", "ceo", "cto", "cfo", "intern", "librarian", "veterinarian", "vet", "paramedic",
    "barista", "cashier", "waiter", "waitress", "worker", "director", "producer", "actor",
    "actress", "singer", "dancer", "coach", "trainer", "athlete", "freelancer", "contractor",
    "administrator", "technician", "specialist", "clerk", "secretary", "assistant",
    "instructor", "tutor", "lecturer", "surgeon", "midwife", "caregiver", "banker", "broker",
    "realtor", "marketer", "recruiter", "statistician", "economist", "mathematician",
    "physicist", "chemist", "biologist", "filmmaker", "screenwriter", "streamer", "youtuber",
    "blogger", "lead", "student", "principal", "investor", "cook", "baker", "driver",
    "soldier", "guard", "receptionist", "hairdresser", "stylist", "translator", "tester",
    "devops", "sre", "owner", "janitor", "professional", "pastor", "priest", "rabbi",
    "counselor", "planner", "strategist", "illustrator", "animator", "composer", "player",
    "dev", "executive", "practitioner", "paralegal", "educator", "associate", "apprentice",
    # trades and professions a new user's trial found missing ("I'm a solicitor at ...")
    "solicitor", "barrister", "brewer", "brewmaster", "butcher", "bartender", "auditor",
    "actuary", "advisor", "adviser", "trader", "underwriter", "reporter", "interpreter",
    "geologist", "carer", "nanny", "cleaner", "steward", "stewardess", "courier", "gardener",
    "landscaper", "florist", "tailor", "barber", "beautician", "cofounder", "co-founder",
    "inspector", "detective", "surveyor", "sommelier", "winemaker", "distiller", "roaster",
    "optician", "optometrist", "radiographer", "sonographer", "phlebotomist", "dietitian",
    "dietician", "nutritionist", "physiotherapist", "physio", "podiatrist", "chiropractor",
    "lifeguard", "curator", "archivist", "dispatcher", "foreman", "supervisor", "welder",
    "machinist", "joiner", "glazier", "roofer", "plasterer", "locksmith", "upholsterer",
    "jeweller", "jeweler", "goldsmith", "sculptor", "bookkeeper", "copywriter", "publicist",
    "diplomat", "judge", "magistrate", "notary", "clinician", "anaesthetist", "anesthesiologist",
    "pediatrician", "paediatrician", "cardiologist", "radiologist", "dermatologist",
    "oncologist", "neurologist", "obstetrician", "orthodontist", "hygienist",
    "zoologist", "ecologist", "botanist", "astronomer", "archaeologist", "historian",
    "linguist", "sociologist", "anthropologist", "philosopher", "technologist",
})
