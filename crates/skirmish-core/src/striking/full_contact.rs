//! Full Contact striking (full-contact-striking.txt).
