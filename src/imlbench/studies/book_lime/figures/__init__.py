"""Figure functions of the book_lime study, one module per part of the book."""
