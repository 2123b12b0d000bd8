module example.com/progress

go 1.24
