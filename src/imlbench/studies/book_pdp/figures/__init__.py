"""Figure functions of the book_pdp study, one module per part of the book."""
