import HelloCrisp

HelloApp.main()
